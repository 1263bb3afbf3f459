Feature: The pods the syncer watches
  The webhook labels every pod it rewrites kuik.enix.io/images-rewritten=true, and the syncer's
  pod informer asks the API server for that label only, so a large cluster's other pods cost the
  syncer no memory and no watch traffic. A pod rewritten by a webhook older than the label is
  not seen until someone labels it.

  Upstream: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#list-and-watch-filtering
  In this project: docs/behaviour.md#the-pods-the-syncer-watches

  Background:
    Given kuik is installed in the namespace kuik-system
    And the Secret quay-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the registry docker.io serves docker.io/acme/app:1.0 to anyone
    And the registry quay.io serves quay.io/acme/app:1.0 to acme:s3cret only
    And the namespace team-a
    And the ImageAlternative quay:
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

  Scenario: A pod the webhook rewrites should carry the label, and a pod it leaves alone should not
    When a pod web-1 using docker.io/acme/app:1.0 is created in team-a
    Then the pod web-1 in team-a must run docker.io/acme/app:1.0
    And the pod web-1 in team-a must not be labelled kuik.enix.io/images-rewritten
    When the registry docker.io is down
    And a pod web-2 using docker.io/acme/app:1.0 is created in team-a
    Then the pod web-2 in team-a must run quay.io/acme/app:1.0
    And the pod web-2 in team-a must be labelled kuik.enix.io/images-rewritten=true

  Scenario: A pod kuik did not rewrite should never reach the syncer
    When a pod plain using docker.io/acme/app:1.0 is created in team-a
    And the registry docker.io is down
    And a pod web-2 using docker.io/acme/app:1.0 is created in team-a
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-quay must hold acme:s3cret for quay.io/acme/app
    And every pod list of the syncer must select kuik.enix.io/images-rewritten=true
    And the syncer must have been handed the pod web-2 in team-a
    And the syncer must never have been handed the pod plain in team-a

  Scenario: A pod rewritten by a webhook older than the label should get its Secret once labelled
    When the pod old-1 in team-a was rewritten by ImageAlternative/quay to quay.io/acme/app:1.0 by a webhook that did not label it
    And 1 minute passes
    Then team-a must not have the Secret kuik-inject-imagealternative-quay
    When the pod old-1 in team-a is labelled kuik.enix.io/images-rewritten=true
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-quay must hold acme:s3cret for quay.io/acme/app
