Feature: Namespace targeting
  Several syncer instances can share a cluster, each deciding for itself whether it serves a
  namespace: the override label wins, then the instance label, then the instance's own
  namespacesByDefault setting. The outline runs the whole truth table on two instances; the
  last two scenarios flip the override while a syncer runs and while it is stopped. The two
  releases list each other in syncer.peers, as docs/operations.md's sharding steps say, so that each
  one's admission policy lets the other's syncer write.

  Upstream: https://archive.istio.io/v1.4/docs/ops/configuration/mesh/secret-creation/ (the truth table, on this project's labels)
  In this project: docs/behaviour.md#namespace-targeting

  Background:
    Given kuik is installed in the namespace kuik-a
    And the Secret acme-pull in kuik-a holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |

  Scenario Outline: Override <override>, instance label <instance label names kuik-a>, namespacesByDefault <namespacesByDefault>: kuik-a <kuik-a writes>, kuik-b <kuik-b writes>
    Given the instance in kuik-a serves unlabelled namespaces: <namespacesByDefault>
    And another kuik instance is installed in the namespace kuik-b, serving unlabelled namespaces: <namespacesByDefault>
    And the Secret acme-pull in kuik-b holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the ImageAlternative acme:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repositoryGroup: quay.io/acme
          auth:
            secretRef: {name: acme-pull}
      """
    When the namespace team-x is created with the labels <labels>
    And 2 seconds pass
    Then the instance in kuik-a must answer <kuik-a writes> to writing kuik-inject-imagealternative-acme in team-x
    And the instance in kuik-b must answer <kuik-b writes> to writing kuik-inject-imagealternative-acme in team-x

    Examples: Istio's truth table (its "env match" column: the instance label names kuik-a, or kuik-b for "no")
      | override | instance label names kuik-a | namespacesByDefault | labels                                                                             | kuik-a writes | kuik-b writes |
      | true     | yes                         | true                | kuik.enix.io/pull-secrets-override=true,kuik.enix.io/pull-secrets-instance=kuik-a  | yes           | yes           |
      | true     | yes                         | false               | kuik.enix.io/pull-secrets-override=true,kuik.enix.io/pull-secrets-instance=kuik-a  | yes           | yes           |
      | true     | no                          | true                | kuik.enix.io/pull-secrets-override=true,kuik.enix.io/pull-secrets-instance=kuik-b  | yes           | yes           |
      | true     | no                          | false               | kuik.enix.io/pull-secrets-override=true,kuik.enix.io/pull-secrets-instance=kuik-b  | yes           | yes           |
      | true     | unset                       | true                | kuik.enix.io/pull-secrets-override=true                                            | yes           | yes           |
      | true     | unset                       | false               | kuik.enix.io/pull-secrets-override=true                                            | yes           | yes           |
      | false    | yes                         | true                | kuik.enix.io/pull-secrets-override=false,kuik.enix.io/pull-secrets-instance=kuik-a | no            | no            |
      | false    | yes                         | false               | kuik.enix.io/pull-secrets-override=false,kuik.enix.io/pull-secrets-instance=kuik-a | no            | no            |
      | false    | no                          | true                | kuik.enix.io/pull-secrets-override=false,kuik.enix.io/pull-secrets-instance=kuik-b | no            | no            |
      | false    | no                          | false               | kuik.enix.io/pull-secrets-override=false,kuik.enix.io/pull-secrets-instance=kuik-b | no            | no            |
      | false    | unset                       | true                | kuik.enix.io/pull-secrets-override=false                                           | no            | no            |
      | false    | unset                       | false               | kuik.enix.io/pull-secrets-override=false                                           | no            | no            |
      | unset    | yes                         | true                | kuik.enix.io/pull-secrets-instance=kuik-a                                          | yes           | no            |
      | unset    | yes                         | false               | kuik.enix.io/pull-secrets-instance=kuik-a                                          | yes           | no            |
      | unset    | no                          | true                | kuik.enix.io/pull-secrets-instance=kuik-b                                          | no            | yes           |
      | unset    | no                          | false               | kuik.enix.io/pull-secrets-instance=kuik-b                                          | no            | yes           |
      | unset    | unset                       | true                | (none)                                                                             | yes           | yes           |
      | unset    | unset                       | false               | (none)                                                                             | no            | no            |

  Scenario: Flipping the override while the syncer runs should empty, then provision, the namespace's Secrets within one reconcile
    Given the namespace team-x
    And the ImageAlternative acme:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repositoryGroup: quay.io/acme
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    Then team-x's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme
    When the namespace team-x is labelled kuik.enix.io/pull-secrets-override=false
    And 1 second passes
    Then team-x's kuik-inject-imagealternative-acme must hold {"auths":{}}
    When the namespace team-x is labelled kuik.enix.io/pull-secrets-override=true
    And 1 second passes
    Then team-x's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme

  Scenario: Flipping the override while the syncer is stopped should leave the last content until the namespace is served again
    Given the namespace team-x
    And the ImageAlternative acme:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repositoryGroup: quay.io/acme
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    When the syncer stops
    And the namespace team-x is labelled kuik.enix.io/pull-secrets-override=false
    And the syncer starts
    And 1 hour passes
    Then team-x's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme
    When the Secret acme-pull in kuik-a is changed to hold the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | rotated  |
    And the namespace team-x is labelled kuik.enix.io/pull-secrets-override=true
    And 2 seconds pass
    Then team-x's kuik-inject-imagealternative-acme must hold acme:rotated for quay.io/acme

  Scenario: A rewrite in a namespace the other instance serves should count with that instance only, and a forged one there be told by that instance only
    Given another kuik instance is installed in the namespace kuik-b, serving unlabelled namespaces: false
    And the Secret acme-pull in kuik-b holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the ImageAlternative acme:
      """yaml
      spec:
        rewritePolicy: OnFailure
        namespaceSelector:
          matchLabels: {team: o}
        alternatives:
        - repositoryGroup: quay.io/acme
          auth:
            secretRef: {name: acme-pull}
      """
    When the namespace team-x is created with the labels team=o,kuik.enix.io/pull-secrets-instance=kuik-b
    And the namespace tenant-x is created with the labels kuik.enix.io/pull-secrets-instance=kuik-b
    And the pod web-1 in team-x is rewritten by ImageAlternative/acme to quay.io/acme/app:1.0
    And a tenant of tenant-x creates the pod forged with the webhook's label and annotations claiming a rewrite by ImageAlternative/acme to quay.io/acme/app:1.0
    And 2 seconds pass
    Then the instance in kuik-b must answer yes to writing kuik-inject-imagealternative-acme in team-x
    And the instance in kuik-a must answer no to writing kuik-inject-imagealternative-acme in team-x
    And team-x's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme
    And tenant-x must not have the Secret kuik-inject-imagealternative-acme
    And the pod forged in tenant-x must have exactly 1 Warning event RewriteNotRecognized
    And the syncer must have counted 0 pods whose rewrite it does not recognize, for NamespaceNotSelected
