Feature: Routing and the pull-secret references
  kuik's pod webhook runs in the simulated API server's admission chain: it orders each
  container's candidates by band, asks the registries, and rewrites the image to the first one
  available. A winning entry that injects also gives the pod its kuik-inject-<kind>-<name>
  reference, and a webhook that is down never holds a pod back.

  Upstream: https://github.com/enix/kube-image-keeper/blob/51321cfe773769ed0b5549bc4a54d5ebf4aaa7ab/docs/concepts/pull-secrets.md#injected-pull-secrets
  Upstream: https://github.com/enix/kube-image-keeper/blob/d196fc2b3c6ebbcab8ae0cb48c8b5a50c680811d/docs/v3/architecture.md#the-admission-path
  In this project: docs/behaviour.md#routing-pods

  Background:
    Given kuik is installed in the namespace kuik-system
    And the Secret quay-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the Secret mirror-read in kuik-system holds the credentials:
      | registry path        | username | password |
      | registry.example.com | mirror   | m-pass   |
    And the registry docker.io serves docker.io/acme/app:1.0 to anyone
    And the registry quay.io serves quay.io/acme/app:1.0 to acme:s3cret only
    And the registry registry.example.com serves registry.example.com/mirror/docker.io/acme/app:1.0 to mirror:m-pass only
    And the namespace team-a

  Scenario Outline: With an <mirror policy> mirror and an <alternative policy> alternative, a pod should run <winner>
    Given the ImageMirror mirror:
      """yaml
      spec:
        rewritePolicy: <mirror policy>
        destination:
          path: registry.example.com/mirror/
          pull:
            auth:
              secretRef: {name: mirror-read}
      """
    And the ImageAlternative quay:
      """yaml
      spec:
        rewritePolicy: <alternative policy>
        alternatives:
        - repository: docker.io/acme/app
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: quay-pull}
      """
    And the registry docker.io is <original registry>
    And 2 seconds pass
    When a pod web-1 using docker.io/acme/app:1.0 is created in team-a
    Then the pod web-1 in team-a must run <winner>

    Examples:
      | mirror policy | alternative policy | original registry | winner                                               |
      | Always        | Always             | up                | registry.example.com/mirror/docker.io/acme/app:1.0   |
      | Always        | OnFailure          | up                | registry.example.com/mirror/docker.io/acme/app:1.0   |
      | OnFailure     | Always             | up                | quay.io/acme/app:1.0                                 |
      | OnFailure     | OnFailure          | up                | docker.io/acme/app:1.0                               |
      | OnFailure     | OnFailure          | down              | quay.io/acme/app:1.0                                 |

  Scenario: An OnFailure alternative should route only while the original is unreachable, and the pod should start with the injected credential
    Given the ImageAlternative quay:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: docker.io/acme/app
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: quay-pull}
      """
    And 2 seconds pass
    When a pod web-1 using docker.io/acme/app:1.0 is created in team-a
    Then the pod web-1 in team-a must run docker.io/acme/app:1.0
    And the pod web-1 in team-a must not reference the Secret kuik-inject-imagealternative-quay
    When the registry docker.io is down
    And a pod web-2 using docker.io/acme/app:1.0 is created in team-a
    Then the pod web-2 in team-a must run quay.io/acme/app:1.0
    And the pod web-2 in team-a must reference the Secret kuik-inject-imagealternative-quay
    And the pod web-2 in team-a must be annotated as rewritten by ImageAlternative/quay
    And the pod web-2 in team-a must be Running within 15 seconds
    And team-a's kuik-inject-imagealternative-quay must hold acme:s3cret for quay.io/acme/app

  Scenario: A winner whose auth does not inject should get no reference
    Given the ImageAlternative quay:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: docker.io/acme/app
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: quay-pull}
            injectPullSecret: false
      """
    And 2 seconds pass
    When a pod web-1 using docker.io/acme/app:1.0 is created in team-a
    Then the pod web-1 in team-a must run quay.io/acme/app:1.0
    And the pod web-1 in team-a must not reference the Secret kuik-inject-imagealternative-quay

  Scenario: Two resources rewriting a pod's two containers should give two references, and the pod's own should stay
    Given the registry docker.io serves docker.io/acme/side:1.0 to anyone
    And the registry quay.io serves quay.io/acme/side:1.0 to acme:s3cret only
    And the ImageAlternative app:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: docker.io/acme/app
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: quay-pull}
      """
    And the ImageAlternative side:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: docker.io/acme/side
        - repository: quay.io/acme/side
          auth:
            secretRef: {name: quay-pull}
      """
    And 2 seconds pass
    When a pod web-1 using docker.io/acme/app:1.0 and docker.io/acme/side:1.0 with its own pull secret team-creds is created in team-a
    Then the pod web-1 in team-a must reference the Secret kuik-inject-imagealternative-app
    And the pod web-1 in team-a must reference the Secret kuik-inject-imagealternative-side
    And the pod web-1 in team-a must reference the Secret team-creds

  Scenario: A pod already routed should not be routed again
    Given the ImageAlternative quay:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: docker.io/acme/app
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: quay-pull}
      """
    And 2 seconds pass
    When a pod web-1 using docker.io/acme/app:1.0 that kuik already routed is created in team-a
    Then the pod web-1 in team-a must run docker.io/acme/app:1.0
    And the pod web-1 in team-a must not reference the Secret kuik-inject-imagealternative-quay

  Scenario: A webhook that is down should leave pods unchanged and admitted
    Given the ImageAlternative quay:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: docker.io/acme/app
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: quay-pull}
      """
    And 2 seconds pass
    When the webhook stops
    And a pod web-1 using docker.io/acme/app:1.0 is created in team-a
    Then the pod web-1 in team-a must run docker.io/acme/app:1.0
    When the webhook starts
    And 2 seconds pass
    And a pod web-2 using docker.io/acme/app:1.0 is created in team-a
    Then the pod web-2 in team-a must run quay.io/acme/app:1.0

  Scenario: Pods in kube-system and in kuik's own namespace should never reach the webhook
    The chart's webhook configuration leaves out kube-system (the control plane's mirror pods,
    DNS, the network plugin) and the install namespace, whatever webhook.excludedNamespaces adds.
    The API server does not even call the webhook there, so no pod of theirs is ever rewritten.
    Given the ImageAlternative quay:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: docker.io/acme/app
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: quay-pull}
      """
    And 2 seconds pass
    When a pod coredns using docker.io/acme/app:1.0 is created in kube-system
    And a pod own using docker.io/acme/app:1.0 is created in kuik-system
    And a pod web-1 using docker.io/acme/app:1.0 is created in team-a
    Then the pod coredns in kube-system must run docker.io/acme/app:1.0
    And the pod coredns in kube-system must not be labelled kuik.enix.io/images-rewritten
    And the pod own in kuik-system must run docker.io/acme/app:1.0
    And the webhook must not have been asked about any pod of kube-system or kuik-system
    And the pod web-1 in team-a must run quay.io/acme/app:1.0

  Scenario: In a namespace that opted out with the override label, the webhook should add no reference
    Given the namespace team-out labelled kuik.enix.io/pull-secrets-override=false
    And the ImageAlternative quay:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: docker.io/acme/app
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: quay-pull}
      """
    And 2 seconds pass
    When a pod web-1 using docker.io/acme/app:1.0 is created in team-out
    Then the pod web-1 in team-out must not reference the Secret kuik-inject-imagealternative-quay
    And team-out must not have the Secret kuik-inject-imagealternative-quay

  Scenario: A private original should stay when the pod's ServiceAccount gives it a pull secret, and be routed when nothing does
    The webhook probes the original without a credential, so a registry that asks for one answers
    "unauthorized". The pod can still pull it when it lists imagePullSecrets, which the
    ServiceAccount admission plugin copies from the pod's ServiceAccount before the webhook runs.
    Given the registry docker.io serves docker.io/acme/private:1.0 to team:t-pass only
    And the registry quay.io serves quay.io/acme/private:1.0 to acme:s3cret only
    And the Secret team-creds in team-a holds the credentials:
      | registry path | username | password |
      | docker.io     | team     | t-pass   |
    And the ServiceAccount builder in team-a lists the pull secret team-creds
    And the ImageAlternative quay:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: docker.io/acme/private
        - repository: quay.io/acme/private
          auth:
            secretRef: {name: quay-pull}
      """
    And 2 seconds pass
    When a pod web-1 using docker.io/acme/private:1.0 with the ServiceAccount builder is created in team-a
    Then the pod web-1 in team-a must run docker.io/acme/private:1.0
    And the pod web-1 in team-a must reference the Secret team-creds
    And the pod web-1 in team-a must be Running within 15 seconds
    When a pod web-2 using docker.io/acme/private:1.0 is created in team-a
    Then the pod web-2 in team-a must run quay.io/acme/private:1.0
    And the pod web-2 in team-a must reference the Secret kuik-inject-imagealternative-quay
    When the ServiceAccount default in team-a lists the pull secret team-creds
    And a pod web-3 using docker.io/acme/private:1.0 is created in team-a
    Then the pod web-3 in team-a must run docker.io/acme/private:1.0
    And the pod web-3 in team-a must reference the Secret team-creds
    And the pod web-3 in team-a must be Running within 15 seconds
