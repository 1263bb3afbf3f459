Feature: Restarts
  What the syncer has written lives in its memory only, so a restart forgets the Secrets that
  nothing needs any more. These scenarios show the leftover each rewrite policy gets from that
  and what ends it, that deleting the resource still removes it, and that a restart re-applies
  every pair as no-ops and can only shorten a grace.

  Upstream: https://github.com/enix/kube-image-keeper/blob/51321cfe773769ed0b5549bc4a54d5ebf4aaa7ab/docs/concepts/pull-secrets.md#when-a-credential-is-no-longer-needed
  In this project: docs/behaviour.md#restarts

  Background:
    Given kuik is installed in the namespace kuik-system
    And the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the namespace team-a labelled tier=prod

  Scenario: Under OnFailure a Secret whose pods went away while the syncer was stopped should keep its content until a new rewrite lands
    Given the ImageAlternative acme-foo:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
        - repository: quay.io/acme/bar
          auth:
            secretRef: {name: acme-pull}
      """
    And the pod web-1 in team-a is rewritten by ImageAlternative/acme-foo to quay.io/acme/foo:1.0
    And 2 seconds pass
    When the syncer stops
    And the pod web-1 in team-a is deleted
    And the syncer starts
    And 1 hour passes
    Then team-a's kuik-inject-imagealternative-acme-foo must hold acme:s3cret for quay.io/acme/foo
    When the pod api-1 in team-a is rewritten by ImageAlternative/acme-foo to quay.io/acme/bar:2.0
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme-foo must hold auths for exactly:
      | quay.io/acme/bar |

  Scenario: Under Always a Secret whose namespace dropped out of scope while the syncer was down should keep its content until the namespace comes back
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
    When the syncer stops
    And the namespace team-a is labelled tier=dev
    And the syncer starts
    And 1 hour passes
    Then team-a's kuik-inject-imagealternative-acme-foo must hold acme:s3cret for quay.io/acme/foo
    When the Secret acme-pull in kuik-system is changed to hold the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | rotated  |
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme-foo must hold acme:s3cret for quay.io/acme/foo
    When the namespace team-a is labelled tier=prod
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme-foo must hold acme:rotated for quay.io/acme/foo

  Scenario Outline: Deleting the resource should delete a <policy> leftover
    Given the ImageAlternative acme-foo:
      """yaml
      spec:
        rewritePolicy: <policy>
        namespaceSelector:
          matchLabels: {tier: prod}
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And the pod web-1 in team-a is rewritten by ImageAlternative/acme-foo to quay.io/acme/foo:1.0
    And 2 seconds pass
    When the syncer stops
    And the pod web-1 in team-a is deleted
    And the namespace team-a is labelled tier=dev
    And the syncer starts
    And 1 hour passes
    Then team-a must have the Secret kuik-inject-imagealternative-acme-foo
    When the ImageAlternative acme-foo is deleted
    And 2 seconds pass
    Then team-a must not have the Secret kuik-inject-imagealternative-acme-foo

    Examples:
      | policy    |
      | OnFailure |
      | Always    |

  Scenario: A restarted syncer should apply every pair once, and the API server should treat them as no-ops
    Given the ImageAlternative acme-foo:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    And the resourceVersion of team-a's kuik-inject-imagealternative-acme-foo is noted
    When the syncer crashes
    And the syncer starts
    And 2 seconds pass
    Then the syncer must have applied kuik-inject-imagealternative-acme-foo in team-a again
    And the resourceVersion of team-a's kuik-inject-imagealternative-acme-foo must be unchanged

  Scenario: A grace cut short by a restart should only shorten how long a credential lingers
    Given the ImageAlternative acme-foo:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
        - repository: quay.io/acme/bar
          auth:
            secretRef: {name: acme-pull}
      """
    And the pod web-1 in team-a is rewritten by ImageAlternative/acme-foo to quay.io/acme/foo:1.0
    And the pod api-1 in team-a is rewritten by ImageAlternative/acme-foo to quay.io/acme/bar:2.0
    And 2 seconds pass
    When the pod web-1 in team-a is deleted
    And 5 minutes pass
    And the syncer crashes
    And the syncer starts
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme-foo must hold auths for exactly:
      | quay.io/acme/bar |
