Feature: Where a Secret lands
  The syncer keeps at most one Secret per routing resource and namespace, and only where pods
  can need it: ahead of time in each namespace an Always resource selects, and only after a
  rewrite in a namespace of an OnFailure resource. These scenarios show both policies, what
  does and does not bound an Always resource, and the resources that write nothing at all.

  Upstream: https://github.com/enix/kube-image-keeper/blob/51321cfe773769ed0b5549bc4a54d5ebf4aaa7ab/docs/concepts/pull-secrets.md#where-a-secret-lands
  In this project: docs/behaviour.md#where-a-secret-lands

  Background:
    Given kuik is installed in the namespace kuik-system
    And the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |

  Scenario: An Always resource should write its Secret in every selected namespace before any pod exists
    Given the namespace team-a labelled tier=prod
    And the namespace team-b labelled tier=dev
    When the ImageAlternative acme-foo is created:
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
    Then team-a must have the Secret kuik-inject-imagealternative-acme-foo
    And team-a must have no pods
    And team-b must not have the Secret kuik-inject-imagealternative-acme-foo

  Scenario: The Secret should be a labelled dockerconfigjson Secret owned by its resource
    Given the namespace team-a
    When the ImageAlternative acme-foo is created:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme-foo must be of type kubernetes.io/dockerconfigjson
    And team-a's kuik-inject-imagealternative-acme-foo must be labelled app.kubernetes.io/managed-by=kuik-secret-syncer
    And team-a's kuik-inject-imagealternative-acme-foo must be owned by the ImageAlternative acme-foo

  Scenario: Under Always the podSelector should not narrow where the Secret lands
    Given the namespace team-a
    When the ImageAlternative acme-foo is created:
      """yaml
      spec:
        rewritePolicy: Always
        podSelector:
          matchLabels: {app: web}
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    Then team-a must have the Secret kuik-inject-imagealternative-acme-foo
    And team-a must have no pods

  Scenario Outline: An Always resource with <selector> should put its Secret in every namespace of the cluster
    Given the namespace team-a labelled tier=prod
    And the namespace team-b
    When the ImageAlternative acme-foo is created:
      """yaml
      spec:
        rewritePolicy: Always
        <selector line>
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    Then team-a must have the Secret kuik-inject-imagealternative-acme-foo
    And team-b must have the Secret kuik-inject-imagealternative-acme-foo
    And default must have the Secret kuik-inject-imagealternative-acme-foo

    Examples:
      | selector                    | selector line           |
      | no namespaceSelector        | podSelector: {}         |
      | an empty namespaceSelector  | namespaceSelector: {}   |

  Scenario: A namespace created later should get the Secret of an Always resource
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
    When the namespace team-c labelled tier=prod is created
    And 2 seconds pass
    Then team-c must have the Secret kuik-inject-imagealternative-acme-foo

  Scenario: A resource none of whose entries injects should write no Secret at all
    Given the namespace team-a
    And the syncer's work so far is noted
    When the ImageAlternative no-inject is created:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
            injectPullSecret: false
        - repository: registry.example.com/acme/foo
          auth:
            provider: ecr
      """
    And 1 minute passes
    Then team-a must not have the Secret kuik-inject-imagealternative-no-inject
    And the syncer must have reconciled ImageAlternative/no-inject in team-a since then

  Scenario: An ImageMirror with rewritePolicy None should write no Secret
    Given the namespace team-a
    And the syncer's work so far is noted
    When the ImageMirror copy-only is created:
      """yaml
      spec:
        rewritePolicy: None
        destination:
          path: quay.io/acme/mirror/
          pull:
            auth:
              secretRef: {name: acme-pull}
      """
    And 1 minute passes
    Then team-a must not have the Secret kuik-inject-imagemirror-copy-only
    And the syncer must have reconciled ImageMirror/copy-only in team-a since then

  Scenario: An OnFailure resource should write its Secret only where a pod was rewritten
    Given the namespace team-a
    And the namespace team-b
    And the ImageAlternative acme-foo:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    When 1 minute passes
    Then team-a must not have the Secret kuik-inject-imagealternative-acme-foo
    When the pod web-1 in team-a is rewritten by ImageAlternative/acme-foo to quay.io/acme/foo:1.0
    And 2 seconds pass
    Then team-a must have the Secret kuik-inject-imagealternative-acme-foo
    And team-b must not have the Secret kuik-inject-imagealternative-acme-foo

  Scenario: The first rewritten pod should start a few seconds later and the next pods should find the Secret in place
    Given the registry quay.io serves quay.io/acme/foo:1.0 to acme:s3cret only
    And the registry docker.io serves docker.io/acme/foo:1.0 to anyone
    And the namespace team-a
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
    When the registry docker.io is down
    And a pod web-1 using docker.io/acme/foo:1.0 is created in team-a
    Then the pod web-1 in team-a must run quay.io/acme/foo:1.0
    And the pod web-1 in team-a must reference the Secret kuik-inject-imagealternative-acme-foo
    And the kubelet's first pull for web-1 in team-a must fail for want of a credential
    And the pod web-1 in team-a must have a Warning event FailedToRetrieveImagePullSecret saying "Unable to retrieve some image pull secrets (kuik-inject-imagealternative-acme-foo); attempting to pull the image may not succeed."
    And the pod web-1 in team-a must be Running within 15 seconds
    When a pod web-2 using docker.io/acme/foo:1.0 is created in team-a
    Then the pod web-2 in team-a must run quay.io/acme/foo:1.0
    And the pod web-2 in team-a must be Running within 1 second
    And the kubelet must have pulled for web-2 in team-a with no failed attempt
