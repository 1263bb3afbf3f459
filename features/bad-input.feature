Feature: Bad input
  Nothing a user or the API server gets wrong may stop another pair's work. Broken source
  Secrets (malformed, nested thousands deep, of the legacy dockercfg type, or holding 50,000
  entries), invalid routing resources (10,000 alternatives among them), Secrets over the 1 MiB
  limit, an immutable Secret at a reserved name, terminating namespaces and API outages each get a
  clear event or log line, and a retry only where retrying can help, never in a tight loop.

  Upstream: https://kubernetes.io/docs/concepts/configuration/secret/ (the limits the API server enforces)
  In this project: docs/behaviour.md#bad-input

  Background:
    Given kuik is installed in the namespace kuik-system
    And the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the namespace team-a
    And the namespace team-b

  Scenario: A source Secret whose docker config is malformed should be left out with an event
    Given the Secret broken-pull in kuik-system holds the docker config '{"auths": ["not", "an", "object"]}'
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
            secretRef: {name: broken-pull}
      """
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme must hold auths for exactly:
      | quay.io/acme |
    And the ImageAlternative acme must have a Warning event PullSecretInjectionFailed saying "Secret kuik-system/broken-pull is malformed"

  Scenario: A source Secret nested thousands of levels deep should be left out with an event, at a bounded cost
    The API server takes JSON nested up to 10000 levels; kuik stops reading at 500.
    Given the Secret deep-pull in kuik-system holds a docker config nested 5000 levels deep
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
            secretRef: {name: deep-pull}
      """
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme must hold auths for exactly:
      | quay.io/acme |
    And the ImageAlternative acme must have a Warning event PullSecretInjectionFailed saying "Secret kuik-system/deep-pull is malformed: nested deeper than 500 levels"

  Scenario: A source Secret of 50,000 auths entries within 1 MiB should still give its entry its credential
    Given the Secret big-pull in kuik-system holds 50000 other auths entries and the credentials acme:s3cret for quay.io/acme
    When the ImageAlternative acme is created:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repositoryGroup: quay.io/acme
          auth:
            secretRef: {name: big-pull}
      """
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme
    And team-b's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme

  Scenario: A legacy kubernetes.io/dockercfg source Secret should be left out with an event naming its type
    Given the Secret old-pull in kuik-system of type kubernetes.io/dockercfg holds the docker config '{"registry.example.com": {"auth": "YTpi"}}'
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
            secretRef: {name: old-pull}
      """
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme must hold auths for exactly:
      | quay.io/acme |
    And the ImageAlternative acme must have a Warning event PullSecretInjectionFailed saying "Secret kuik-system/old-pull is of type kubernetes.io/dockercfg, not kubernetes.io/dockerconfigjson"

  Scenario: A resource of 10,000 alternatives stored without the CRD's schema should be refused whole with an event, and stop no other resource
    The CRD allows at most 64 alternatives; kuik counts them before anything else and uses none.
    Given the ImageAlternative huge listing 10000 alternatives under acme-pull is created through an API server without the CRD's schema
    And the ImageAlternative acme is created:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repositoryGroup: quay.io/acme
          auth:
            secretRef: {name: acme-pull}
      """
    When 2 seconds pass
    Then the ImageAlternative huge must have a Warning event InvalidRoutingResource saying "spec.alternatives: lists 10000 alternatives, at most 64 are allowed (the CRD's maxItems): kuik uses none of them"
    And team-a must not have the Secret kuik-inject-imagealternative-huge
    And team-a's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme

  Scenario: A resource the CRD refuses should be refused by the API server before any controller sees it
    When a person tries to create the ImageAlternative broken:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: quay.io/acme/foo:1.0
          auth:
            secretRef: {name: acme-pull}
      """
    Then the API server must refuse it with 422 saying "spec.alternatives[0].repository: Invalid value: must not have a tag or digest"
    When 2 seconds pass
    Then the ImageAlternative broken must be gone
    And team-a must not have the Secret kuik-inject-imagealternative-broken

  Scenario: A resource that fails validation should get an event and cost no other resource its Secrets
    A cluster stores such a resource when its CRD has no schema (an older or hand-made CRD): the
    API server validates nothing then, and keeps the object when the chart's CRD comes back.
    When the ImageAlternative broken is created through an API server without the CRD's schema:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: quay.io/acme/foo:1.0
          auth:
            secretRef: {name: acme-pull}
      """
    And the ImageAlternative acme is created:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repositoryGroup: quay.io/acme
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    Then the ImageAlternative broken must have a Warning event InvalidRoutingResource saying "spec.alternatives[0].repository"
    And team-a must not have the Secret kuik-inject-imagealternative-broken
    And team-a's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme

  Scenario: A resource of the wrong shape should get an event naming the field and stop no other resource
    An API server that does not enforce kuik's CRD schema stores any shape under spec. Each such
    resource is invalid on its own; resources created before and after it are still served, by the
    syncer and by the pod webhook.

    Given the registry quay.io serves quay.io/acme/app:1.0 to acme:s3cret only
    When the ImageAlternative oops is created through an API server without the CRD's schema:
      """yaml
      spec:
        alternatives: oops
      """
    And the ImageMirror wrong is created through an API server without the CRD's schema:
      """yaml
      spec:
        destination: [quay.io/mirror]
      """
    And 2 seconds pass
    And the ImageAlternative acme is created:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: docker.io/acme/app
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    And a pod web-1 using docker.io/acme/app:1.0 is created in team-a
    Then the ImageAlternative oops must have a Warning event InvalidRoutingResource saying "spec.alternatives: is a string ("oops") where the CRD expects a list"
    And the ImageMirror wrong must have a Warning event InvalidRoutingResource saying "spec.destination: is a list where the CRD expects an object"
    And team-a's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme/app
    And the pod web-1 in team-a must run quay.io/acme/app:1.0
    And the pod web-1 in team-a must be Running within 15 seconds

  Scenario: A Secret that would pass 1 MiB should not be written, and the last good content should stay
    Given the ImageAlternative big:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repositoryGroup: quay.io/acme
          auth:
            secretRef: {name: acme-pull}
        - repositoryGroup: registry.example.com/one
          auth:
            secretRef: {name: big-one}
        - repositoryGroup: registry.example.com/two
          auth:
            secretRef: {name: big-two}
      """
    And 2 seconds pass
    When the Secret big-one in kuik-system holds a 400 KiB password for registry.example.com
    And the Secret big-two in kuik-system holds a 400 KiB password for registry.example.com
    And 2 seconds pass
    Then the ImageAlternative big must have a Warning event PullSecretTooLarge saying "over the 1 MiB limit"
    And team-a's kuik-inject-imagealternative-big must hold auths for exactly:
      | quay.io/acme |

  Scenario: An immutable Secret already at the reserved name should get an event, a slow retry, and no effect on other namespaces
    Given before kuik's admission policy existed, a person created in team-a the immutable Secret kuik-inject-imagealternative-acme holding '{"auths":{}}'
    When the ImageAlternative acme is created:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repositoryGroup: quay.io/acme
          auth:
            secretRef: {name: acme-pull}
      """
    And 10 minutes pass
    Then the ImageAlternative acme must have a Warning event PullSecretWriteRefused saying "team-a"
    And team-b's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme
    And the syncer must have sent at most 12 applies for kuik-inject-imagealternative-acme in team-a

  Scenario: A terminating namespace should get no write and no retry
    Given the ImageAlternative acme:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repositoryGroup: quay.io/acme
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    And the namespace team-a has a finalizer that holds it in Terminating
    When the namespace team-a is deleted
    And the Secret acme-pull in kuik-system is changed to hold the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | rotated  |
    And 10 minutes pass
    Then the syncer must have sent no apply to team-a since the namespace was deleted
    And team-b's kuik-inject-imagealternative-acme must hold acme:rotated for quay.io/acme

  Scenario: An API outage should be retried with backoff, never in a tight loop, and converge when it ends
    Given the ImageAlternative acme:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repositoryGroup: quay.io/acme
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    When the Secret acme-pull in kuik-system is changed to hold the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | rotated  |
    And the API server answers every request with 503 for 10 minutes
    And 10 minutes pass
    Then the syncer must have sent at most 12 applies of each Secret during the outage
    When 6 minutes pass
    Then team-a's kuik-inject-imagealternative-acme must hold acme:rotated for quay.io/acme
    And team-b's kuik-inject-imagealternative-acme must hold acme:rotated for quay.io/acme
