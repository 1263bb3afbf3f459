Feature: Releasing credentials
  A credential leaves a namespace only once no pod can still need it. An OnFailure entry that no
  live pod uses is kept through a 15-minute grace, long enough for the pods of a rollout, or of a
  scale-up while a registry is down, to come back; a Secret with nothing left to hold is emptied to {"auths":{}} rather than deleted,
  and only deleting the resource removes its Secrets, through their owner reference.

  Upstream: https://github.com/enix/kube-image-keeper/blob/51321cfe773769ed0b5549bc4a54d5ebf4aaa7ab/docs/concepts/pull-secrets.md#when-a-credential-is-no-longer-needed
  In this project: docs/behaviour.md#releasing-credentials

  Background:
    Given kuik is installed in the namespace kuik-system
    And the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the namespace team-a labelled tier=prod

  Scenario: An unused OnFailure entry should stay 15 minutes and then leave, leaving {"auths":{}}
    Given the ImageAlternative acme-foo:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And the pod web-1 in team-a is rewritten by ImageAlternative/acme-foo to quay.io/acme/foo:1.0
    And 2 seconds pass
    When the pod web-1 in team-a is deleted
    And 14 minutes 59 seconds pass
    Then team-a's kuik-inject-imagealternative-acme-foo must hold acme:s3cret for quay.io/acme/foo
    When 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme-foo must hold {"auths":{}}

  Scenario: An entry whose pod lived only a moment should still get its grace
    Given the ImageAlternative acme-foo:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    When the pod web-1 in team-a is rewritten by ImageAlternative/acme-foo to quay.io/acme/foo:1.0
    And the pod web-1 in team-a is deleted
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme-foo must hold acme:s3cret for quay.io/acme/foo
    When 15 minutes pass
    Then team-a's kuik-inject-imagealternative-acme-foo must hold {"auths":{}}

  Scenario: The grace should be a setting
    Given the syncer is restarted with a grace period of 5 minutes
    And the ImageAlternative acme-foo:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And the pod web-1 in team-a is rewritten by ImageAlternative/acme-foo to quay.io/acme/foo:1.0
    And 2 seconds pass
    When the pod web-1 in team-a is deleted
    And 4 minutes 59 seconds pass
    Then team-a's kuik-inject-imagealternative-acme-foo must hold acme:s3cret for quay.io/acme/foo
    When 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme-foo must hold {"auths":{}}

  Scenario: A rollout during an outage should find the entry kept by the grace
    Given the registry quay.io serves quay.io/acme/foo:1.0 and quay.io/acme/foo:1.1 to acme:s3cret only
    And the registry docker.io serves docker.io/acme/foo:1.0 and docker.io/acme/foo:1.1 to anyone
    And the ImageAlternative acme-foo:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: docker.io/acme/foo
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    And the registry docker.io is down
    And a pod web-1 using docker.io/acme/foo:1.0 is created in team-a
    And the pod web-1 in team-a must be Running within 15 seconds
    When the pod web-1 in team-a is deleted
    And 10 minutes pass
    And a pod web-2 using docker.io/acme/foo:1.1 is created in team-a
    Then the pod web-2 in team-a must run quay.io/acme/foo:1.1
    And the pod web-2 in team-a must be Running within 1 second
    And the kubelet must have pulled for web-2 in team-a with no failed attempt

  Scenario Outline: A pod that ended <phase> should keep its entry for the grace only
    Given the registry quay.io serves quay.io/acme/foo:1.0 to acme:s3cret only
    And the ImageAlternative acme-foo:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And the pod job-1 in team-a is rewritten by ImageAlternative/acme-foo to quay.io/acme/foo:1.0 with restartPolicy <restart policy>
    And the pod job-1 in team-a must be Running within 15 seconds
    When the container of the pod job-1 in team-a exits with code <exit code>
    Then the pod job-1 in team-a must be <phase>
    When 14 minutes 59 seconds pass
    Then team-a's kuik-inject-imagealternative-acme-foo must hold acme:s3cret for quay.io/acme/foo
    When 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme-foo must hold {"auths":{}}

    Examples:
      | restart policy | exit code | phase     |
      | Never          | 0         | Succeeded |
      | Never          | 1         | Failed    |
      | OnFailure      | 0         | Succeeded |

  Scenario Outline: A pod whose container restarts should keep its entry
    Given the registry quay.io serves quay.io/acme/foo:1.0 to acme:s3cret only
    And the ImageAlternative acme-foo:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And the pod web-1 in team-a is rewritten by ImageAlternative/acme-foo to quay.io/acme/foo:1.0 with restartPolicy <restart policy>
    And the pod web-1 in team-a must be Running within 15 seconds
    When the container of the pod web-1 in team-a exits with code <exit code>
    Then the pod web-1 in team-a must be Running
    When 20 minutes pass
    Then team-a's kuik-inject-imagealternative-acme-foo must hold acme:s3cret for quay.io/acme/foo

    Examples:
      | restart policy | exit code |
      | Always         | 0         |
      | OnFailure      | 1         |

  Scenario: A key released during an Always spell out of scope should not come back with OnFailure
    Given the ImageAlternative acme-foo:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And the pod web-1 in team-a is rewritten by ImageAlternative/acme-foo to quay.io/acme/foo:1.0
    And 2 seconds pass
    When the ImageAlternative acme-foo is changed to:
      """yaml
      spec:
        rewritePolicy: Always
        namespaceSelector:
          matchLabels: {tier: dev}
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme-foo must hold {"auths":{}}
    When the pod web-1 in team-a is deleted
    And 20 minutes pass
    And the ImageAlternative acme-foo is changed to:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme-foo must hold {"auths":{}}

  Scenario: An entry removed from the resource should leave at once
    Given the ImageAlternative acme:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
        - repository: quay.io/acme/bar
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    When the ImageAlternative acme is changed to:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme must hold auths for exactly:
      | quay.io/acme/foo |

  Scenario: A namespace leaving the scope of an Always resource should get the empty Secret
    Given the ImageAlternative acme-foo:
      """yaml
      spec:
        rewritePolicy: Always
        namespaceSelector:
          matchLabels: {tier: prod}
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    When the namespace team-a is labelled tier=dev
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme-foo must hold {"auths":{}}

  Scenario: Deleting the resource should delete its Secrets in every namespace
    Given the namespace team-b labelled tier=prod
    And the ImageAlternative acme-foo:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    When the ImageAlternative acme-foo is deleted
    And 2 seconds pass
    Then team-a must not have the Secret kuik-inject-imagealternative-acme-foo
    And team-b must not have the Secret kuik-inject-imagealternative-acme-foo

  Scenario: Deleting the resource in the foreground should not wait for its Secrets, which still go
    The syncer's owner references do not set blockOwnerDeletion, so a foreground deletion (kubectl
    delete --cascade=foreground) holds the resource only until the garbage collector sees it.
    Given the namespace team-b labelled tier=prod
    And the ImageAlternative acme-foo:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    When the ImageAlternative acme-foo is deleted with foreground propagation
    Then the ImageAlternative acme-foo must be terminating with the finalizer foregroundDeletion
    When 2 seconds pass
    Then the ImageAlternative acme-foo must be gone
    And team-a must not have the Secret kuik-inject-imagealternative-acme-foo
    And team-b must not have the Secret kuik-inject-imagealternative-acme-foo
