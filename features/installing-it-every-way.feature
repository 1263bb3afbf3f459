Feature: Installing it every way
  kuik works under every value the chart's schema accepts: another prefix for every name
  (fullnameOverride), several releases side by side in one namespace, namespaces left out of the
  webhook. Each process is told the names of the objects it waits for by the chart helper that
  names them, so what it waits for is what Helm created; each release elects its syncer's leader
  on a Lease of its own; and the namespaces kuik serves are one list, which the webhook
  configuration, the webhook and the syncer all read. The simulated cluster installs what Helm
  renders for the values given, and runs each process with the command line its Deployment gets.

  In this project: docs/behaviour.md#namespaces-kuik-serves and chart/README.md#names

  Scenario: With fullnameOverride, the syncer waits for the policy the chart created, and writes
    Given kuik is installed as the release kuik in the namespace kuik-system with the values:
      | value            | is   |
      | fullnameOverride | acme |
    And the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the namespace team-a
    And the ImageAlternative app:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: acme-pull}
      """
    When 2 seconds pass
    Then the syncer of the release kuik must write under the admission policy acme-pull-secrets
    And team-a must have the Secret kuik-inject-imagealternative-app
    When `helm test kuik` runs
    Then the test must pass with the rows:
      | check          | result | saying                                                         |
      | policy         | pass   | ValidatingAdmissionPolicy acme-pull-secrets of release kuik    |
      | policy-binding | pass   | ValidatingAdmissionPolicyBinding acme-pull-secrets binds       |
      | syncer-ready   | pass   | Deployment kuik-system/acme-secret-syncer: 1 of 1 replicas     |
      | webhook-ready  | pass   | Deployment kuik-system/acme-webhook: 1 of 1 replicas           |

  Scenario: Two releases in one namespace each elect on their own Lease, and each webhook gates on its own
    Given kuik is installed as the release edge in the namespace kuik-system with the values:
      | value                          | is                  |
      | pullSecretFirst.enabled        | true                |
      | syncer.peers[0].namespace      | kuik-system         |
      | syncer.peers[0].release        | core                |
    And the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the release core is installed beside it in the namespace kuik-system with the values:
      | value                          | is                  |
      | pullSecretFirst.enabled        | true                |
      | syncer.namespacesByDefault     | false               |
      | syncer.peers[0].namespace      | kuik-system         |
      | syncer.peers[0].release        | edge                |
    And 5 seconds pass
    Then the Lease edge-secret-syncer in kuik-system must be fresh
    And the Lease core-secret-syncer in kuik-system must be fresh
    And the syncer of the release edge must write under the admission policy edge-pull-secrets
    And the syncer of the release core must write under the admission policy core-pull-secrets
    When the syncer of the release edge crashes
    And 20 seconds pass
    Then the Lease edge-secret-syncer in kuik-system must be stale
    And the Lease core-secret-syncer in kuik-system must be fresh

  Scenario Outline: A claim of a rewrite in a namespace kuik does not serve draws nothing: <namespace>
    Given kuik is installed as the release kuik in the namespace kuik-system with the values:
      | value                         | is     |
      | webhook.excludedNamespaces[0] | legacy |
    And the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the namespace legacy
    And the ImageAlternative app:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    When a tenant of <namespace> creates the pod forged with the webhook's label and annotations claiming a rewrite by ImageAlternative/app to quay.io/acme/app:1.0
    And 1 minute passes
    Then <namespace> must not have the Secret kuik-inject-imagealternative-app

    Examples:
      | namespace   |
      | kube-system |
      | kuik-system |
      | legacy      |

  Scenario: An Always resource writes nothing in a namespace kuik does not serve
    Given kuik is installed as the release kuik in the namespace kuik-system with the values:
      | value                         | is     |
      | webhook.excludedNamespaces[0] | legacy |
    And the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the namespace legacy
    And the namespace team-a
    And the ImageAlternative app:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: acme-pull}
      """
    When 2 seconds pass
    Then team-a must have the Secret kuik-inject-imagealternative-app
    And legacy must not have the Secret kuik-inject-imagealternative-app
    And kube-system must not have the Secret kuik-inject-imagealternative-app
    And kuik-system must not have the Secret kuik-inject-imagealternative-app
