Feature: How a node pulls with the Secret
  A node's kubelet does not pull a container's image with the one key written for it: it matches
  every key of every pull Secret the pod references to the image, a key's path being a plain string
  prefix of the image's, and tries each matching credential in turn, most specific first. It pulls
  anonymously only when no key matches at all. A referenced pull Secret that does not exist gives a
  warning Event, and the pull goes on without it.
  (https://github.com/kubernetes/kubernetes/blob/master/pkg/credentialprovider/keyring.go,
  https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/kuberuntime/kuberuntime_image.go;
  docs/decisions/0002-credential-the-kubelet-uses.md)

  Background:
    Given kuik is installed in the namespace kuik-system
    And the namespace team-a

  Scenario: The Secret for quay.io/acme/foo should also offer its credential to a container on quay.io/acme/foo-bar
    Given the Secret acme-pull in kuik-system holds the credentials:
      | registry path    | username | password |
      | quay.io/acme/foo | acme     | a-pass   |
    And the registry quay.io serves quay.io/acme/foo:1.0 to acme:a-pass only
    And the registry quay.io serves quay.io/acme/foo-bar:1.0 to anyone
    And the ImageAlternative foo:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    When the pod web-1 in team-a is rewritten by ImageAlternative/foo to quay.io/acme/foo:1.0 beside a container sidecar on quay.io/acme/foo-bar:1.0
    Then the pod web-1 in team-a must be Running within 1 second
    And the kubelet must have pulled quay.io/acme/foo-bar:1.0 for web-1 in team-a as acme

  Scenario: A credential refused on the neighbouring repository should fail its pull rather than fall back to anonymous
    Given the Secret acme-pull in kuik-system holds the credentials:
      | registry path    | username | password |
      | quay.io/acme/foo | acme     | expired  |
    And the registry quay.io serves quay.io/acme/foo-bar:1.0 to anyone
    And the ImageAlternative foo:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    When the pod web-1 in team-a is rewritten by ImageAlternative/foo to quay.io/acme/foo:1.0 beside a container sidecar on quay.io/acme/foo-bar:1.0
    And 1 minute passes
    Then the kubelet must have tried quay.io/acme/foo-bar:1.0 for web-1 in team-a only as acme, refused every time
    And the container sidecar of the pod web-1 in team-a must be waiting in ImagePullBackOff

  Scenario: A pull Secret the pod references that does not exist should give a warning Event, and the pull should go on without it
    Given the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | a-pass   |
    And the registry quay.io serves quay.io/acme/app:1.0 to acme:a-pass only
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
    And there is no Secret team-creds in team-a
    When the pod web-1 in team-a is rewritten by ImageAlternative/acme to quay.io/acme/app:1.0 with its own pull secret team-creds
    Then the pod web-1 in team-a must be Running within 1 second
    And the pod web-1 in team-a must have a Warning event FailedToRetrieveImagePullSecret saying "Unable to retrieve some image pull secrets (team-creds); attempting to pull the image may not succeed."
    And the kubelet must have pulled quay.io/acme/app:1.0 for web-1 in team-a as acme
