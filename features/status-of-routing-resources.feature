Feature: Status of the routing resources
  `kubectl get imagealternatives,imagemirrors` says whether each resource is valid and in how many
  namespaces its Secret holds a credential. The syncer writes that status with a server-side apply
  on the status subresource, which is all it may write of a routing resource, and at most once per
  resource every few seconds however many pods and namespaces change in between.

  Upstream: https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#status-subresource
  In this project: docs/behaviour.md#status-of-the-routing-resources

  Background:
    Given kuik is installed in the namespace kuik-system
    And the Secret acme-pull in kuik-system holds the credentials:
      | registry path        | username | password |
      | quay.io/acme         | acme     | s3cret   |
      | registry.example.com | mirror   | m1rr0r   |
    And the namespace team-a labelled tier=prod
    And the namespace team-b labelled tier=prod
    And the namespace team-c labelled tier=dev

  Scenario: kubectl get should show a valid resource and the namespaces holding its Secret
    Given the ImageAlternative acme:
      """yaml
      spec:
        rewritePolicy: Always
        namespaceSelector:
          matchLabels: {tier: prod}
        alternatives:
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: acme-pull}
      """
    And the ImageMirror mirror:
      """yaml
      spec:
        destination:
          path: registry.example.com/mirror/
          pull:
            auth:
              secretRef: {name: acme-pull}
      """
    When the pod batch in team-c is rewritten by ImageMirror/mirror to registry.example.com/mirror/docker.io/library/busybox:1.36
    And 10 seconds pass
    Then `kubectl get imagealternatives,imagemirrors` must show:
      | NAME                                  | VALID | NAMESPACES |
      | imagealternative.kuik.enix.io/acme    | True  | 2          |
      | imagemirror.kuik.enix.io/mirror       | True  | 1          |
    And the ImageAlternative acme's condition Valid must be True with reason Valid saying "every field is valid"

  Scenario: An invalid resource should show Valid False with the reason and every problem
    When the ImageAlternative broken is created through an API server without the CRD's schema:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: quay.io/acme/foo:1.0
          auth:
            secretRef: {name: acme-pull}
      """
    And 10 seconds pass
    Then `kubectl get imagealternatives -o wide` must show:
      | NAME                                 | VALID | REASON                 | NAMESPACES |
      | imagealternative.kuik.enix.io/broken | False | InvalidRoutingResource | 0          |
    And the ImageAlternative broken's condition Valid must be False with reason InvalidRoutingResource saying "spec.alternatives[0].repository"

  Scenario: The count should follow the namespaces and cost one status write every few seconds at most
    Six pods rewritten one second apart change the count six times; the syncer writes it when the
    resource appears, then at most once every 5 seconds.

    Given the ImageAlternative acme:
      """yaml
      spec:
        alternatives:
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: acme-pull}
      """
    When the namespace team-d is created
    And the namespace team-e is created
    And the namespace team-f is created
    And the pod web in team-a is rewritten by ImageAlternative/acme to quay.io/acme/app:1.0
    And 1 second passes
    And the pod web in team-b is rewritten by ImageAlternative/acme to quay.io/acme/app:1.0
    And 1 second passes
    And the pod web in team-c is rewritten by ImageAlternative/acme to quay.io/acme/app:1.0
    And 1 second passes
    And the pod web in team-d is rewritten by ImageAlternative/acme to quay.io/acme/app:1.0
    And 1 second passes
    And the pod web in team-e is rewritten by ImageAlternative/acme to quay.io/acme/app:1.0
    And 1 second passes
    And the pod web in team-f is rewritten by ImageAlternative/acme to quay.io/acme/app:1.0
    And 15 seconds pass
    Then `kubectl get imagealternatives` must show:
      | NAME                               | VALID | NAMESPACES |
      | imagealternative.kuik.enix.io/acme | True  | 6          |
    And the syncer must have written the status of the ImageAlternative acme at most 3 times
    When the pod web in team-a is deleted
    And the pod web in team-b is deleted
    And 16 minutes pass
    Then `kubectl get imagealternatives` must show:
      | NAME                               | VALID | NAMESPACES |
      | imagealternative.kuik.enix.io/acme | True  | 4          |
