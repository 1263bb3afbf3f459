Feature: Keeping it valid
  The syncer applies its Secrets blind and never reads them back, so it has to write again
  whenever something they are made from changes: a source Secret, the resource, a namespace's
  labels, the pods an OnFailure resource serves, or the periodic resync that brings back a
  deleted Secret. Writes that would change nothing cost the API server nothing, and the syncer
  reads no Secret outside its own namespace.

  Upstream: https://github.com/enix/kube-image-keeper/blob/51321cfe773769ed0b5549bc4a54d5ebf4aaa7ab/docs/concepts/pull-secrets.md#keeping-it-valid
  In this project: docs/behaviour.md#keeping-it-valid

  Background:
    Given kuik is installed in the namespace kuik-system
    And the Secret acme-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the namespace team-a labelled tier=prod
    And the namespace team-b labelled tier=prod
    And the ImageAlternative acme-foo:
      """yaml
      spec:
        rewritePolicy: Always
        namespaceSelector:
          matchLabels: {tier: prod}
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
      """
    And 2 seconds pass

  Scenario: Rewriting a source Secret should rewrite every Secret that uses it
    When the Secret acme-pull in kuik-system is changed to hold the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | rotated  |
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme-foo must hold acme:rotated for quay.io/acme/foo
    And team-b's kuik-inject-imagealternative-acme-foo must hold acme:rotated for quay.io/acme/foo

  Scenario: Creating a missing source Secret should fill the entry that was left out
    When the ImageAlternative acme-foo is changed to:
      """yaml
      spec:
        rewritePolicy: Always
        namespaceSelector:
          matchLabels: {tier: prod}
        alternatives:
        - repository: quay.io/acme/foo
          auth:
            secretRef: {name: acme-pull}
        - repository: registry.example.com/acme/foo
          auth:
            secretRef: {name: late-pull}
      """
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme-foo must hold auths for exactly:
      | quay.io/acme/foo |
    When the Secret late-pull in kuik-system holds the credentials:
      | registry path        | username | password |
      | registry.example.com | late     | l-pass   |
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme-foo must hold late:l-pass for registry.example.com/acme/foo

  Scenario: A namespace entering the scope should get the Secret
    Given the namespace team-c labelled tier=dev
    And 2 seconds pass
    Then team-c must not have the Secret kuik-inject-imagealternative-acme-foo
    When the namespace team-c is labelled tier=prod
    And 2 seconds pass
    Then team-c must have the Secret kuik-inject-imagealternative-acme-foo

  Scenario: A Secret deleted by a person should come back at the next resync
    When a person deletes the Secret kuik-inject-imagealternative-acme-foo in team-a
    And 2 seconds pass
    Then team-a must not have the Secret kuik-inject-imagealternative-acme-foo
    When a resync period passes
    Then team-a's kuik-inject-imagealternative-acme-foo must hold acme:s3cret for quay.io/acme/foo

  Scenario: An OnFailure Secret deleted by a person should come back at the next resync
    Given the ImageAlternative acme-bar:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: quay.io/acme/bar
          auth:
            secretRef: {name: acme-pull}
      """
    And the pod web-1 in team-a is rewritten by ImageAlternative/acme-bar to quay.io/acme/bar:1.0
    And 2 seconds pass
    When a person deletes the Secret kuik-inject-imagealternative-acme-bar in team-a
    And 2 seconds pass
    Then team-a must not have the Secret kuik-inject-imagealternative-acme-bar
    When a resync period passes
    Then team-a's kuik-inject-imagealternative-acme-bar must hold acme:s3cret for quay.io/acme/bar

  Scenario: A write that changes nothing should be a no-op on the API server
    Given the resourceVersion of team-a's kuik-inject-imagealternative-acme-foo is noted
    When a resync period passes
    Then the syncer must have applied kuik-inject-imagealternative-acme-foo in team-a again
    And the resourceVersion of team-a's kuik-inject-imagealternative-acme-foo must be unchanged

  Scenario: Events that change nothing should not cost a request
    Given the number of applies the syncer sent is noted
    When the namespace team-a is labelled owner=alice
    And the Secret acme-pull in kuik-system is annotated note=unrelated
    And 2 seconds pass
    Then the syncer must have sent no new apply
    And the syncer must have reconciled ImageAlternative/acme-foo in team-a since then

  Scenario: The syncer should never read a Secret outside the cluster resource namespace
    When the pod web-1 in team-a is rewritten by ImageAlternative/acme-foo to quay.io/acme/foo:1.0
    And a resync period passes
    Then the syncer must not have read any Secret outside kuik-system

  Scenario: A Secret deleted right after its first write should come back within one resync period
    Given the syncer is restarted spreading each resync over its 10-minute period
    And 2 seconds pass
    And the namespace team-c labelled tier=prod
    And 2 seconds pass
    When a person deletes the Secret kuik-inject-imagealternative-acme-foo in team-c
    And 2 seconds pass
    Then team-c must not have the Secret kuik-inject-imagealternative-acme-foo
    When 10 minutes pass
    Then team-c's kuik-inject-imagealternative-acme-foo must hold acme:s3cret for quay.io/acme/foo

  Scenario: Every Secret should be applied again within one resync period, through the pass after a restart
    At --api-qps 2 the resync may send 1 apply a second (--resync-share 0.5), so 540 Secrets fill
    nine tenths of its 10-minute period, and the pass after the restart (540 applies at 2 a second)
    lasts some minutes. Each Secret that pass writes owes its next slot within the period; the
    slots that fall due during the pass go first, within the resync's share, not after it.
    Given 540 namespaces named bulk-1 to bulk-540
    And the ImageAlternative acme-all:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: quay.io/acme/all
          auth:
            secretRef: {name: acme-pull}
      """
    And 1 minute passes
    When the syncer is restarted spreading each resync over its 10-minute period, with --api-qps 2
    And 40 minutes pass
    Then in each of bulk-1 to bulk-540 the syncer must have applied kuik-inject-imagealternative-acme-all again at most 10 minutes and 15 seconds after each of its applies since the restart

  Scenario: A rewritten pod's Secret should arrive within a few seconds while the pass after a restart over 300 namespaces runs
    After a restart the syncer applies every pair that holds a Secret once, its memory of what it
    wrote being gone: 300 Secrets and more at --api-qps 20 after a burst of 50, some 15 seconds.
    Work an event asks for goes before that pass all along.
    Given 300 namespaces named bulk-1 to bulk-300
    And the ImageAlternative acme-all:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: quay.io/acme/all
          auth:
            secretRef: {name: acme-pull}
      """
    And the ImageAlternative acme-bar:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: quay.io/acme/bar
          auth:
            secretRef: {name: acme-pull}
      """
    And 1 minute passes
    And the number of applies the syncer sent is noted
    When the syncer is restarted spreading each resync over its 10-minute period
    And 5 seconds pass
    And the pod web-1 in team-a is rewritten by ImageAlternative/acme-bar to quay.io/acme/bar:1.0
    And 2 seconds pass
    Then team-a's kuik-inject-imagealternative-acme-bar must hold acme:s3cret for quay.io/acme/bar
    And the syncer must have sent fewer than 250 applies since then
    When 40 seconds pass
    Then the syncer must have sent at least 303 applies since then

  Scenario: Secrets should go out at the write limit even when each apply takes 300 ms to be answered
    The syncer does not wait for one apply's answer before it sends the next: up to 8 are in
    flight (--max-applies-in-flight), so 160 namespaces get their Secret in about 8 seconds at
    the 20 writes a second of --api-qps, where one apply at a time would take 48 seconds.
    Given the API server takes 300 ms to answer each apply of the syncer
    And 160 namespaces named bulk-1 to bulk-160
    When the ImageAlternative acme-all is created:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: quay.io/acme/all
          auth:
            secretRef: {name: acme-pull}
      """
    And 10 seconds pass
    Then each of bulk-1 to bulk-160 must have the Secret kuik-inject-imagealternative-acme-all

  Scenario: A namespace deleted while its Secret's apply is in flight, then created again, should get its Secret within a few seconds
    The answer of an apply the syncer sent for a pair it has forgotten since records nothing: the
    namespace that comes back is a new one, written as any new namespace is.
    Given the API server takes 4000 ms to answer each apply of the syncer
    And the namespace team-c labelled tier=prod
    And 3 seconds pass
    When the namespace team-c is deleted
    And 5 seconds pass
    And the namespace team-c labelled tier=prod is created
    And 10 seconds pass
    Then team-c's kuik-inject-imagealternative-acme-foo must hold acme:s3cret for quay.io/acme/foo

  Scenario: A source rotated while its Secret's apply is in flight should end with the rotated credential
    One pair never has two applies in flight: the rotation waits for the first apply's answer,
    then goes out, so the older content cannot land after the newer one.
    Given the API server takes 2000 ms to answer each apply of the syncer
    And the namespace team-c labelled tier=prod
    And 1 second passes
    When the Secret acme-pull in kuik-system is changed to hold the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | rotated  |
    And 1 second passes
    Then the syncer must have sent exactly 1 apply of kuik-inject-imagealternative-acme-foo in team-c so far
    When 5 seconds pass
    Then team-c's kuik-inject-imagealternative-acme-foo must hold acme:rotated for quay.io/acme/foo
    And the syncer must have sent exactly 2 applies of kuik-inject-imagealternative-acme-foo in team-c so far
