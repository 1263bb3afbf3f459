Feature: Writing only under the policy
  RBAC lets the syncer create and patch Secrets in every namespace; the chart's
  ValidatingAdmissionPolicy and its binding are what bound those writes. Helm 3 creates them after
  the Deployments on install (kinds it does not know go last, pkg/releaseutil/kind_sorter.go in
  helm/helm) and deletes everything in one pass on uninstall, while the syncer's pod runs through
  its termination grace. So the syncer reads both by name every 5 seconds (get, granted for these
  names only) and writes nothing while either is missing: /readyz fails, one log line says why and
  kuik_syncer_admission_policy_in_place is 0. Nothing is lost: once they are back, every pair is
  applied again, which also undoes whatever was written under the reserved names meanwhile.

  In this project: docs/behaviour.md#writing-only-under-the-policy

  Scenario: A syncer started before its admission policy should write nothing until the policy and its binding exist
    Given kuik is installed in the namespace kuik-system as Helm orders it, its admission policy and binding created 30 seconds after the syncer starts
    And the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the namespace team-a
    And the ImageAlternative acme:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: acme-pull}
      """
    When 25 seconds pass
    Then team-a must not have the Secret kuik-inject-imagealternative-acme
    And the syncer must have sent no apply at all
    And the syncer must not be ready, saying "the ValidatingAdmissionPolicy kuik-pull-secrets does not exist"
    When 10 seconds pass
    Then team-a's kuik-inject-imagealternative-acme must hold acme:s3cret for quay.io/acme/app
    And the syncer must be ready

  Scenario: A syncer whose policy binding goes away while it runs should stop writing, and write everything once it is back
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
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass
    When the admission policy's binding is deleted
    And 5 seconds pass
    Then the syncer must not be ready, saying "the ValidatingAdmissionPolicyBinding kuik-pull-secrets does not exist"
    Given the number of applies the syncer sent is noted
    When the namespace team-b is created
    And the Secret acme-pull in kuik-system is changed to hold the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | rotated  |
    And a person changes the data of team-a's kuik-inject-imagealternative-acme
    Then the write must have passed
    When 1 minute passes
    Then the syncer must have sent no new apply
    And team-b must not have the Secret kuik-inject-imagealternative-acme
    When Helm creates the admission policy and its binding again
    And 10 seconds pass
    Then team-b's kuik-inject-imagealternative-acme must hold acme:rotated for quay.io/acme/app
    And team-a's kuik-inject-imagealternative-acme must hold acme:rotated for quay.io/acme/app
    And the syncer must be ready

  Scenario: A syncer whose policy goes away, its binding left, should stop writing too
    Given kuik is installed in the namespace kuik-system
    And the namespace team-a
    And 2 seconds pass
    When the admission policy is deleted
    And 5 seconds pass
    Then the syncer must not be ready, saying "the ValidatingAdmissionPolicy kuik-pull-secrets does not exist"
