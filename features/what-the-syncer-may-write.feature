Feature: What the syncer may write
  RBAC has to let the syncer create and patch Secrets everywhere, so the chart's
  ValidatingAdmissionPolicy narrows it at the API server: the syncer may write nothing but its
  own pull secrets, and no one else may write under its two reserved prefixes, save a rotation
  by replace and the garbage collector. The only deletions the policy looks at are the syncer's
  own, and it refuses them, so the syncer never deletes even where OpenShift's
  OwnerReferencesPermissionEnforcement makes it hold the right to. The simulated API server
  enforces the chart's own policy and RBAC from chart/files, so these scenarios also show Velero
  restores and a policy that cannot be evaluated. Who counts as a syncer is exactly the release's
  own ServiceAccount and the peer releases it lists in syncer.peers, never an account by its name,
  and only with a token bound to its pod; no one else may add a finalizer to a reserved Secret.

  Upstream: https://github.com/enix/kube-image-keeper/blob/d196fc2b3c6ebbcab8ae0cb48c8b5a50c680811d/docs/v3/architecture.md#bounding-what-the-syncer-may-write
  In this project: docs/behaviour.md#what-the-syncer-may-write

  Background:
    Given kuik is installed in the namespace kuik-system
    And the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the namespace team-a
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

  @the-policy-refuses-the-syncer
  Scenario Outline: A write by the syncer's identity that <breaks a rule> should be refused with the policy's message
    When the syncer's identity applies in <namespace> a Secret <name> of type <type> <labelled>
    Then the write must be refused saying "<message>"

    Examples:
      | breaks a rule                                   | namespace | name            | type                           | labelled                                          | message                                                         |
      | is of another type                              | team-a    | kuik-inject-x   | Opaque                         | labelled app.kubernetes.io/managed-by=kuik-secret-syncer | may only write Secrets of type kubernetes.io/dockerconfigjson |
      | lacks the managed-by label                      | team-a    | kuik-inject-x   | kubernetes.io/dockerconfigjson | unlabelled                                        | must carry the label app.kubernetes.io/managed-by: kuik-secret-syncer |
      | uses a name outside the reserved ones           | team-a    | registry-creds  | kubernetes.io/dockerconfigjson | labelled app.kubernetes.io/managed-by=kuik-secret-syncer | may only write Secrets named kuik-inject-*                |
      | names a kuik-provider-* outside its namespace   | team-a    | kuik-provider-x | kubernetes.io/dockerconfigjson | labelled app.kubernetes.io/managed-by=kuik-secret-syncer | kuik-provider-* (in kuik-system only)                     |

  @the-policy-refuses-the-syncer
  Scenario Outline: The syncer's ServiceAccount with <token> should be refused <what>
    A legacy token Secret, or a token from kubectl create token, is not bound to the syncer's pod:
    the API server says so by leaving the pod's name out of the request's userInfo.extra (a
    requested token carries its credential id there, a legacy one nothing at all).
    When the syncer's ServiceAccount with <token> applies in team-a a Secret <name> of type <type> <labelled>
    Then the write must be refused saying "system:serviceaccount:kuik-system:kuik-secret-syncer writes Secrets only with a token bound to one of its pods"

    Examples:
      | token                             | what                    | name                               | type                           | labelled                                                 |
      | a legacy token Secret             | its own pull secrets    | kuik-inject-imagealternative-other | kubernetes.io/dockerconfigjson | labelled app.kubernetes.io/managed-by=kuik-secret-syncer |
      | a legacy token Secret             | any other Secret either | registry-creds                     | Opaque                         | unlabelled                                               |
      | a token from kubectl create token | its own pull secrets    | kuik-inject-imagealternative-other | kubernetes.io/dockerconfigjson | labelled app.kubernetes.io/managed-by=kuik-secret-syncer |
      | a token from kubectl create token | any other Secret either | registry-creds                     | Opaque                         | unlabelled                                               |

  Scenario: A Secret created with generateName kuik-inject- should be refused: its name is generated before the policy looks
    When a person creates in team-a a Secret named from generateName kuik-inject- of type kubernetes.io/dockerconfigjson
    Then the write must be refused saying "are written only by the kuik secret-syncer"
    And the request must be refused with 403 Forbidden

  Scenario: Adding a finalizer to a reserved Secret should be refused, and deleting the resource should still take its Secrets
    A finalizer would keep the Secret, and the credential in it, after its resource is deleted.
    When a person adds the finalizer example.com/keep to team-a's kuik-inject-imagealternative-acme
    Then the write must be refused saying "alice may not add a finalizer to team-a/kuik-inject-imagealternative-acme"
    When the ImageAlternative acme is deleted with foreground propagation
    And 2 seconds pass
    Then team-a must not have the Secret kuik-inject-imagealternative-acme

  Scenario: A tenant's ServiceAccount named like a syncer should be refused the reserved names
    Given the ServiceAccount x-secret-syncer in team-a may create and patch Secrets there
    When the ServiceAccount x-secret-syncer of team-a applies in team-a a Secret kuik-inject-imagealternative-other of type kubernetes.io/dockerconfigjson labelled app.kubernetes.io/managed-by=kuik-secret-syncer
    Then the write must be refused saying "are written only by the kuik secret-syncer (system:serviceaccount:kuik-system:kuik-secret-syncer, or a peer listed in syncer.peers, from its pod)"

  Scenario: The syncer of a peer release should be let through by this release's policy
    Given another kuik instance is installed in the namespace kuik-b, serving unlabelled namespaces: false
    When the syncer of the release in kuik-b applies in team-a a Secret kuik-inject-imagealternative-other of type kubernetes.io/dockerconfigjson labelled app.kubernetes.io/managed-by=kuik-secret-syncer
    Then the write must have passed

  Scenario: The syncer of a release that no release lists as a peer should be refused the reserved names
    Given a kuik release is installed in the namespace kuik-c, listed by no other release
    When the syncer of the release in kuik-c applies in team-a a Secret kuik-inject-imagealternative-other of type kubernetes.io/dockerconfigjson labelled app.kubernetes.io/managed-by=kuik-secret-syncer
    Then the write must be refused saying "system:serviceaccount:kuik-c:kuik-c-secret-syncer may not create team-a/kuik-inject-imagealternative-other"

  Scenario: A kuik-provider-* Secret in the install namespace should be let through for the syncer
    When the syncer's identity applies in kuik-system a Secret kuik-provider-ecr of type kubernetes.io/dockerconfigjson labelled app.kubernetes.io/managed-by=kuik-secret-syncer
    Then the write must have passed

  Scenario: The syncer should not be able to read a Secret outside the install namespace
    When the syncer's identity gets the Secret kuik-inject-imagealternative-acme in team-a
    Then the request must be refused with 403 Forbidden
    When the syncer's identity lists the Secrets of every namespace
    Then the request must be refused with 403 Forbidden

  Scenario Outline: <who> should be refused the creation of <name> in <namespace>
    When <who> creates in <namespace> a Secret <name> of type kubernetes.io/dockerconfigjson
    Then the write must be refused saying "are written only by the kuik secret-syncer"
    And the request must be refused with 403 Forbidden

    Examples:
      | who      | namespace   | name                     |
      | a person | team-a      | kuik-inject-handmade     |
      | a person | kuik-system | kuik-provider-handmade   |
      | a CI bot | team-a      | kuik-provider-handmade   |
      | a CI bot | kuik-system | kuik-inject-handmade     |
      | Helm     | team-a      | kuik-inject-from-a-chart |

  Scenario Outline: <who> should be refused a change of the data of a reserved Secret
    When <who> changes the data of team-a's kuik-inject-imagealternative-acme
    Then the write must be refused saying "may not change the type, data, labels or immutability"

    Examples:
      | who      |
      | a person |
      | a CI bot |
      | Helm     |

  Scenario: A kubectl replace of every Secret of the cluster should pass for the reserved names and change nothing
    When a person replaces every Secret of the cluster with kubectl replace
    Then every replace must have passed
    And team-a's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme
    And the syncer must have sent no apply since the replace

  Scenario: The garbage collector's removal of an owner reference should pass when a resource is deleted with orphan propagation
    When the ImageAlternative acme is deleted with orphan propagation
    And 2 seconds pass
    Then team-a must have the Secret kuik-inject-imagealternative-acme
    And team-a's kuik-inject-imagealternative-acme must have no owner reference

  Scenario: Any other change of the owner references should be refused
    When a person removes the owner references of team-a's kuik-inject-imagealternative-acme
    Then the write must be refused saying "may not change the owner references"

  Scenario: Deleting a managed Secret should not be checked, and the syncer should write it again at the next resync
    When a person deletes the Secret kuik-inject-imagealternative-acme in team-a
    Then team-a must not have the Secret kuik-inject-imagealternative-acme
    When a resync period passes
    Then team-a's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme

  Scenario: A Velero restore that includes these Secrets should end PartiallyFailed, and the syncer should write them again
    Given a Velero backup named everything of every Secret
    When the namespace team-a is deleted
    And 5 seconds pass
    And the namespace team-a is created
    And Velero restores the backup everything
    Then the restore must end PartiallyFailed with one error for team-a's kuik-inject-imagealternative-acme
    And the restore errors must say "exclude the Secrets labelled app.kubernetes.io/managed-by=kuik-secret-syncer from the backup"
    When 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme

  Scenario: A restore of a backup that excludes these Secrets, as documented, should complete cleanly
    Given a Velero backup named advised of every Secret except those labelled app.kubernetes.io/managed-by=kuik-secret-syncer
    When the namespace team-a is deleted
    And 5 seconds pass
    And the namespace team-a is created
    And Velero restores the backup advised
    Then the restore must end Completed
    When 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme

  @the-policy-refuses-the-syncer
  Scenario: While the policy cannot be evaluated, the syncer's writes and the reserved names should be refused, and every other Secret write should pass
    When the admission policy cannot be evaluated
    And Helm installs the release shop in team-a
    Then the write must have passed
    When a person creates in team-a a Secret app-config of type Opaque
    Then the write must have passed
    When a person creates in team-a a Secret kuik-inject-handmade of type kubernetes.io/dockerconfigjson
    Then the write must be refused saying "resulted in error"
    When the Secret acme-pull in kuik-system is changed to hold the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | rotated  |
    And 2 seconds pass
    Then the policy must have refused a write of the syncer
    And team-a's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme
    When the admission policy can be evaluated again
    And 10 minutes pass
    Then team-a's kuik-inject-imagealternative-acme must hold acme:rotated for quay.io/acme

  Scenario: Where OwnerReferencesPermissionEnforcement runs (OpenShift), the syncer's owner references should need delete on Secrets
    The admission plugin asks whoever sets an owner reference for the right to delete the object;
    the chart grants it with syncer.ownerReferencesPermissionEnforcement.
    Given the API server enforces OwnerReferencesPermissionEnforcement
    When the namespace team-b is created
    And 2 seconds pass
    Then the syncer's applies of kuik-inject-imagealternative-acme in team-b must have been refused saying "cannot set an ownerRef on a resource you can't delete"
    And team-b must not have the Secret kuik-inject-imagealternative-acme
    When kuik is upgraded with syncer.ownerReferencesPermissionEnforcement=true
    And 10 seconds pass
    Then team-b's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme

  @the-policy-refuses-the-syncer
  Scenario: With delete granted for OwnerReferencesPermissionEnforcement, the policy should still refuse every deletion by the syncer, and the garbage collector's should pass
    Given the API server enforces OwnerReferencesPermissionEnforcement
    And kuik is upgraded with syncer.ownerReferencesPermissionEnforcement=true
    When the syncer's identity deletes the Secret kuik-inject-imagealternative-acme in team-a
    Then the write must be refused saying "the kuik secret-syncer never deletes a Secret (team-a/kuik-inject-imagealternative-acme)"
    And the request must be refused with 403 Forbidden
    And team-a must have the Secret kuik-inject-imagealternative-acme
    When the ImageAlternative acme is deleted
    And 2 seconds pass
    Then team-a must not have the Secret kuik-inject-imagealternative-acme
