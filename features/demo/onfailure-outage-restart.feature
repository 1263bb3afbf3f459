@demo
Feature: Demo: an OnFailure rollout through a syncer restart, then the credential's release
  The README's demo. While docker.io is down, kuik's webhook rewrites a pod to an alternative
  registry that needs a credential; the pod starts a few seconds after its Secret lands; the syncer crashes and comes back without losing what the
  pods need; a rollout finds the credential in place; once no pod uses it, it stays 15 minutes and
  leaves, and the Secret holds {"auths":{}}. Run it with the demo command of the README: it prints
  the timeline of every request, watch delivery and pull, and writes it to
  features/target/demo/. Copy this file, change the steps (they are the same as in the features
  one folder up), and run your own.

  Scenario: An OnFailure rollout through a syncer restart
    Given kuik is installed in the namespace kuik-system
    And the registry quay.io serves quay.io/acme/app:1.0 and quay.io/acme/app:1.1 to acme:s3cret only
    And the registry docker.io serves docker.io/acme/app:1.0 and docker.io/acme/app:1.1 to anyone
    And the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the namespace shop
    And the ImageAlternative acme-app:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: docker.io/acme/app
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    When the registry docker.io is down
    And a pod web-1 using docker.io/acme/app:1.0 is created in shop
    Then the pod web-1 in shop must run quay.io/acme/app:1.0
    And the kubelet's first pull for web-1 in shop must fail for want of a credential
    And the pod web-1 in shop must be Running within 15 seconds
    When the syncer crashes
    And 30 seconds pass
    And the syncer starts
    And 5 seconds pass
    And the pod web-1 in shop is deleted
    And 5 minutes pass
    And a pod web-2 using docker.io/acme/app:1.1 is created in shop
    Then the pod web-2 in shop must run quay.io/acme/app:1.1
    And the pod web-2 in shop must be Running within 1 second
    When the pod web-2 in shop is deleted
    And 14 minutes 59 seconds pass
    Then shop's kuik-inject-imagealternative-acme-app must hold acme:s3cret for quay.io/acme/app
    When 2 seconds pass
    Then shop's kuik-inject-imagealternative-acme-app must hold {"auths":{}}
