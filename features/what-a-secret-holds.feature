Feature: What a Secret holds
  Each injecting entry gets one auths key, its registry path as written (an ImageMirror's
  destination path without its trailing slash). The value is the credential a node's kubelet would
  try first from the entry's secretRef Secret for the entry's images: keys match when their path is
  a string prefix of the image's, and the one that sorts last wins, whatever order the Secret lists
  them in. Entries that cannot be served are left out, the others are still written, and a
  PullSecretInjectionFailed event says why; a provider entry gets what its provider mints
  (provider-credentials.feature), and is left out, saying why, when there is none.

  Upstream: https://github.com/enix/kube-image-keeper/blob/51321cfe773769ed0b5549bc4a54d5ebf4aaa7ab/docs/concepts/pull-secrets.md#what-a-secret-holds
  In this project: docs/behaviour.md#what-a-secret-holds, docs/decisions/0002-credential-the-kubelet-uses.md

  Background:
    Given kuik is installed in the namespace kuik-system
    And the namespace team-a

  Scenario: Each entry should get one auths key, its registry path as written
    Given the Secret acme-pull in kuik-system holds the credentials:
      | registry path        | username | password |
      | quay.io              | acme     | s3cret   |
      | registry.example.com | ex       | ex-pass  |
    When the ImageAlternative acme is created:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repositoryGroup: quay.io/acme
          auth:
            secretRef: {name: acme-pull}
        - repositoryGroup: registry.example.com/acme
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme must hold auths for exactly:
      | quay.io/acme              |
      | registry.example.com/acme |

  Scenario: An ImageMirror's key should be its destination path without the trailing slash
    Given the Secret mirror-read in kuik-system holds the credentials:
      | registry path        | username | password |
      | registry.example.com | mirror   | m-pass   |
    When the ImageMirror prod-mirror is created:
      """yaml
      spec:
        rewritePolicy: Always
        destination:
          path: registry.example.com/mirror/
          pull:
            auth:
              secretRef: {name: mirror-read}
      """
    And 2 seconds pass
    Then team-a's kuik-inject-imagemirror-prod-mirror must hold auths for exactly:
      | registry.example.com/mirror |
    And team-a's kuik-inject-imagemirror-prod-mirror must hold mirror:m-pass for registry.example.com/mirror

  Scenario: Two entries of one host should keep their own credentials and the kubelet should pick the most specific
    Given the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | a-pass   |
    And the Secret other-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/other | other    | o-pass   |
    And the registry quay.io serves quay.io/other/bar:1.0 to other:o-pass only
    When the ImageAlternative two-teams is created:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repositoryGroup: quay.io/acme
          auth:
            secretRef: {name: acme-pull}
        - repositoryGroup: quay.io/other
          auth:
            secretRef: {name: other-pull}
      """
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-two-teams must hold acme:a-pass for quay.io/acme
    And team-a's kuik-inject-imagealternative-two-teams must hold other:o-pass for quay.io/other
    When the pod bar-1 in team-a is rewritten by ImageAlternative/two-teams to quay.io/other/bar:1.0
    Then the pod bar-1 in team-a must be Running within 1 second
    And the kubelet must have pulled quay.io/other/bar:1.0 for bar-1 in team-a as other

  Scenario Outline: The value should be the most specific credential of the secretRef Secret for the path, with the <general> key listed <where>
    Given the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | <first key>   | <first>  | <first>  |
      | <second key>  | <second> | <second> |
    When the ImageAlternative acme is created:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repositoryGroup: quay.io/acme/team
          auth:
            secretRef: {name: acme-pull}
        - repositoryGroup: quay.io/zeta
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme must hold acme:acme for quay.io/acme/team
    And team-a's kuik-inject-imagealternative-acme must hold generic:generic for quay.io/zeta

    Examples:
      | general             | where  | first key           | first   | second key          | second  |
      | https://quay.io/v1/ | first  | https://quay.io/v1/ | generic | quay.io/acme        | acme    |
      | https://quay.io/v1/ | last   | quay.io/acme        | acme    | https://quay.io/v1/ | generic |

  Scenario: A source holding only quay.io/acme should give its credential to the entry quay.io/acme-corp/app
    Given the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | a-pass   |
    And the registry quay.io serves quay.io/acme-corp/app:1.0 to acme:a-pass only
    When the ImageAlternative corp is created:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: quay.io/acme-corp/app
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-corp must hold acme:a-pass for quay.io/acme-corp/app
    When the pod app-1 in team-a is rewritten by ImageAlternative/corp to quay.io/acme-corp/app:1.0
    Then the pod app-1 in team-a must be Running within 1 second
    And the kubelet must have pulled quay.io/acme-corp/app:1.0 for app-1 in team-a as acme

  Scenario: Two entries of one host, one path a string prefix of the other, should keep their own credentials
    Given the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | a-pass   |
    And the Secret corp-pull in kuik-system holds the credentials:
      | registry path     | username | password |
      | quay.io/acme-corp | corp     | c-pass   |
    And the registry quay.io serves quay.io/acme-corp/app:1.0 to corp:c-pass only
    When the ImageAlternative two-teams is created:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repositoryGroup: quay.io/acme
          auth:
            secretRef: {name: acme-pull}
        - repositoryGroup: quay.io/acme-corp
          auth:
            secretRef: {name: corp-pull}
      """
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-two-teams must hold acme:a-pass for quay.io/acme
    And team-a's kuik-inject-imagealternative-two-teams must hold corp:c-pass for quay.io/acme-corp
    When the pod app-1 in team-a is rewritten by ImageAlternative/two-teams to quay.io/acme-corp/app:1.0
    Then the pod app-1 in team-a must be Running within 1 second
    And the kubelet must have pulled for app-1 in team-a with no failed attempt
    And the kubelet must have pulled quay.io/acme-corp/app:1.0 for app-1 in team-a as corp

  Scenario Outline: A secretRef that <problem> should be left out, the other entries still written, and an event recorded
    Given the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | a-pass   |
    And <broken source>
    When the ImageAlternative acme is created:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repositoryGroup: quay.io/acme
          auth:
            secretRef: {name: acme-pull}
        - repositoryGroup: registry.example.com/team
          auth:
            secretRef: {name: team-pull}
      """
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme must hold auths for exactly:
      | quay.io/acme |
    And the ImageAlternative acme must have a Warning event PullSecretInjectionFailed saying "<reason>"

    Examples:
      | problem                           | broken source                                                              | reason                                                    |
      | is missing                        | there is no Secret team-pull in kuik-system                                | Secret kuik-system/team-pull does not exist               |
      | is not a docker-registry Secret   | the Opaque Secret team-pull in kuik-system holds password=hunter2          | is of type Opaque, not kubernetes.io/dockerconfigjson     |
      | holds no credential for the path  | the Secret team-pull in kuik-system holds a credential for quay.io/elsewhere only | holds no credential for registry.example.com/team   |

  Scenario: A provider entry whose provider is not configured should be left out, saying so
    Given the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | a-pass   |
    When the ImageAlternative acme is created:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repositoryGroup: quay.io/acme
          auth:
            secretRef: {name: acme-pull}
        - repositoryGroup: 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme
          auth:
            provider: ecr
            injectPullSecret: true
      """
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme must hold auths for exactly:
      | quay.io/acme |
    And the ImageAlternative acme must have a Warning event PullSecretInjectionFailed saying "provider ecr is not configured: list it in the chart's providers"
