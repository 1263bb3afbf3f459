Feature: kuik plan agrees with the cluster
  kuik plan shows, from manifests alone, the kuik-inject Secrets each namespace would get, the
  auths keys they would hold, the image each container would run and the references the webhook
  would add. It runs kuik's own webhook and syncer on a simulated cluster where every registry
  serves every image to anyone. Here the plan is made first; then the same manifests are applied
  to a cluster where kuik is installed and the registries hold the images and ask for the
  credentials: the cluster must end up as planned, Secret for Secret, key for key, image for image.
  (docs/cli.md, "Planning a change offline")

  Background:
    Given the manifests shop:
      """yaml
      apiVersion: v1
      kind: Namespace
      metadata: {name: shop-prod, labels: {tier: prod}}
      ---
      apiVersion: v1
      kind: Namespace
      metadata: {name: shop-dev, labels: {tier: dev}}
      ---
      apiVersion: v1
      kind: Secret
      metadata: {name: quay-pull, namespace: kuik-system}
      type: kubernetes.io/dockerconfigjson
      stringData:
        .dockerconfigjson: '{"auths":{"quay.io":{"username":"other","password":"o-pass"},"quay.io/acme":{"username":"acme","password":"s3cret"}}}'
      ---
      apiVersion: v1
      kind: Secret
      metadata: {name: mirror-read, namespace: kuik-system}
      type: kubernetes.io/dockerconfigjson
      stringData:
        .dockerconfigjson: '{"auths":{"registry.example.com":{"username":"mirror","password":"m-pass"}}}'
      ---
      apiVersion: kuik.enix.io/v1alpha1
      kind: ImageAlternative
      metadata: {name: acme}
      spec:
        rewritePolicy: Always
        namespaceSelector: {matchLabels: {tier: prod}}
        alternatives:
        - repository: docker.io/acme/app
        - repository: quay.io/acme/app
          auth: {secretRef: {name: quay-pull}}
      ---
      apiVersion: kuik.enix.io/v1alpha1
      kind: ImageMirror
      metadata: {name: mirror}
      spec:
        rewritePolicy: OnFailure
        destination:
          path: registry.example.com/mirror/
          pull:
            auth: {secretRef: {name: mirror-read}}
      ---
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, namespace: shop-prod}
      spec:
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            containers:
            - {name: app, image: docker.io/acme/app:1.0}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: batch, namespace: shop-dev}
      spec:
        containers:
        - {name: job, image: docker.io/acme/app:1.0}
      """
    And kuik is installed in the namespace kuik-system
    And the registry docker.io serves docker.io/acme/app:1.0 to anyone
    And the registry quay.io serves quay.io/acme/app:1.0 to acme:s3cret only
    And the registry registry.example.com serves registry.example.com/mirror/docker.io/acme/app:1.0 to mirror:m-pass only

  Scenario: The cluster should hold the Secrets and keys, and run the images, that kuik plan printed
    When kuik plan runs on the manifests shop
    And the manifests shop are applied
    And 1 minute passes
    Then kuik plan must have found no problem
    And kuik plan must have planned 1 kuik-inject Secret
    And the cluster's kuik-inject Secrets must be those kuik plan printed, each key holding the credential of the source key it named
    And every pod must run the images kuik plan chose, with the references it added, in the phase it planned

  Scenario: During an outage of docker.io the cluster should do what kuik plan --registry-down docker.io printed
    When kuik plan runs on the manifests shop with --registry-down docker.io
    And the registry docker.io is down
    And the manifests shop are applied
    And 1 minute passes
    Then kuik plan must have found no problem
    And kuik plan must have planned 2 kuik-inject Secrets
    And the cluster's kuik-inject Secrets must be those kuik plan printed, each key holding the credential of the source key it named
    And every pod must run the images kuik plan chose, with the references it added, in the phase it planned
