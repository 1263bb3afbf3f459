Feature: Which rewrites count
  An OnFailure resource writes its Secret in a namespace once a pod there was rewritten by it. The
  syncer learns of a rewrite from the pod: the label kuik.enix.io/images-rewritten and the
  kuik.enix.io/rewritten-by annotation. Whoever creates a pod writes those too, so a pod's claim
  counts only where kuik's webhook could have made it: the resource exists, its namespaceSelector
  selects the namespace, and the container's image is under one of its entries. Any other claim
  draws no credential, not even for a grace period, and the pod gets one RewriteNotRecognized
  Warning. The podSelector cannot bound anything here: the pod's labels are the tenant's to write.

  In this project: docs/behaviour.md#which-rewrites-count

  Background:
    Given kuik is installed in the namespace kuik-system
    And the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the namespace team-o labelled team=o
    And the namespace tenant
    And the ImageAlternative acme:
      """yaml
      spec:
        rewritePolicy: OnFailure
        namespaceSelector:
          matchLabels: {team: o}
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass

  Scenario: A pod forged outside the namespaceSelector should draw no credential, and be told once why
    When a tenant of tenant creates the pod forged with the webhook's label and annotations claiming a rewrite by ImageAlternative/acme to quay.io/acme/foo:1.0
    And 2 seconds pass
    Then tenant must not have the Secret kuik-inject-imagealternative-acme
    And the pod forged in tenant must have a Warning event RewriteNotRecognized saying "container app claims a rewrite by ImageAlternative/acme, but the namespaceSelector of ImageAlternative/acme does not select namespace tenant. The claim draws no credential: kuik writes a pull secret only where its webhook could have made the rewrite"
    And the syncer must have counted 1 pod whose rewrite it does not recognize, for NamespaceNotSelected
    When the pod forged in tenant is labelled try=again
    And a resync period passes
    Then tenant must not have the Secret kuik-inject-imagealternative-acme
    And the pod forged in tenant must have exactly 1 Warning event RewriteNotRecognized
    And the syncer must have counted 1 pod whose rewrite it does not recognize, for NamespaceNotSelected

  Scenario: A forged pod deleted at once should not start a grace period either
    When a tenant of tenant creates the pod forged with the webhook's label and annotations claiming a rewrite by ImageAlternative/acme to quay.io/acme/foo:1.0
    And the pod forged in tenant is deleted
    And 2 seconds pass
    Then tenant must not have the Secret kuik-inject-imagealternative-acme

  Scenario: A pod in a selected namespace claiming an image under none of the entries should draw no credential
    When a tenant of team-o creates the pod foreign with the webhook's label and annotations claiming a rewrite by ImageAlternative/acme to docker.io/someone/else:1
    And 2 seconds pass
    Then team-o must not have the Secret kuik-inject-imagealternative-acme
    And the pod foreign in team-o must have a Warning event RewriteNotRecognized saying "container app claims a rewrite by ImageAlternative/acme, but its image docker.io/someone/else:1 is under none of the entries of ImageAlternative/acme. The claim draws no credential: kuik writes a pull secret only where its webhook could have made the rewrite"
    And the syncer must have counted 1 pod whose rewrite it does not recognize, for ImageNotCovered

  Scenario: A pod claiming a resource that does not exist should be told so
    When a tenant of team-o creates the pod ghostly with the webhook's label and annotations claiming a rewrite by ImageAlternative/ghost to quay.io/acme/foo:1.0
    And 2 seconds pass
    Then team-o must not have the Secret kuik-inject-imagealternative-ghost
    And the pod ghostly in team-o must have a Warning event RewriteNotRecognized saying "container app claims a rewrite by ImageAlternative/ghost, but ImageAlternative/ghost does not exist. The claim draws no credential: kuik writes a pull secret only where its webhook could have made the rewrite"
    And the syncer must have counted 1 pod whose rewrite it does not recognize, for NoSuchResource

  Scenario: A rewrite the webhook could have made should count, and its pod get no warning
    When the pod web-1 in team-o is rewritten by ImageAlternative/acme to quay.io/acme/foo:1.0
    And 2 seconds pass
    Then team-o's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme/foo
    And the pod web-1 in team-o must have exactly 0 Warning events RewriteNotRecognized

  Scenario: A namespace taken out of the namespaceSelector should keep its running pods' credential for the grace period, then lose it
    Given the registry quay.io serves quay.io/acme/foo:1.0 to acme:s3cret only
    When the pod web-1 in team-o is rewritten by ImageAlternative/acme to quay.io/acme/foo:1.0
    Then the pod web-1 in team-o must be Running within 15 seconds
    When the namespace team-o is labelled team=gone
    And 2 seconds pass
    Then team-o's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme/foo
    When 14 minutes 55 seconds pass
    Then team-o's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme/foo
    When 5 seconds pass
    Then team-o's kuik-inject-imagealternative-acme must hold {"auths":{}}
    And the pod web-1 in team-o must be Running
