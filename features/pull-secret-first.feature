Feature: Pull secret first
  With the chart value pullSecretFirst.enabled, no rewritten pod pulls before its Secret holds the
  entries it needs. The webhook gives each pod it gives a pull-secret reference the scheduling gate
  kuik.enix.io/pull-secret too, while the syncer's leader renews its Lease. Kubernetes never
  schedules a pod that still has a gate, so no kubelet sees it and nothing pulls for it; the pod is
  Pending with the condition PodScheduled=False, reason SchedulingGated. The syncer removes the gate
  once the apply of each of the pod's Secrets was answered with the content the pod needs. A pod
  still gated pullSecretFirst.maxWait after its creation is released anyway by the webhook's
  process, with a Warning Event PullSecretNotReady: a syncer that is down strands no pod. An
  admission policy lets the syncer and the webhook remove that gate from a pod, and change nothing
  else of it.
  (https://kubernetes.io/docs/concepts/scheduling-eviction/pod-scheduling-readiness/;
  docs/decisions/0052-pull-secret-first.md)

  In this project: docs/behaviour.md#pull-secret-first

  Background:
    Given kuik is installed in the namespace kuik-system with pull secret first, the gate bound to 30 seconds
    And the Secret quay-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the registry quay.io serves quay.io/acme/app:1.0 to acme:s3cret only
    And the registry docker.io serves docker.io/acme/app:1.0 to anyone

  Scenario: Under Always, the first pod of a new namespace should wait on the gate until its Secret is there, then pull once
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
    When the namespace team-new is created
    And 100 milliseconds pass
    And a pod web-1 using docker.io/acme/app:1.0 is created in team-new
    Then the pod web-1 in team-new must be gated by kuik.enix.io/pull-secret
    And the pod web-1 in team-new must have the condition PodScheduled False/SchedulingGated
    And the kubelet must not have pulled for web-1 in team-new
    And the pod web-1 in team-new must be Running within 3 seconds
    And the pod web-1 in team-new must not be gated
    And the gate of web-1 in team-new must have been removed after its namespace's kuik-inject-imagealternative-quay was first written
    And the kubelet must have pulled for web-1 in team-new with no failed attempt
    And the pod web-1 in team-new must have exactly 0 Warning events PullSecretNotReady

  Scenario: Under OnFailure, the first rewrite of a namespace should wait on the gate until its Secret is there, then pull once
    Given the namespace team-a
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
    And the registry docker.io is down
    And 2 seconds pass
    And team-a must not have the Secret kuik-inject-imagealternative-quay
    When a pod web-1 using docker.io/acme/app:1.0 is created in team-a
    Then the pod web-1 in team-a must run quay.io/acme/app:1.0
    And the pod web-1 in team-a must be gated by kuik.enix.io/pull-secret
    And the pod web-1 in team-a must be Running within 3 seconds
    And the gate of web-1 in team-a must have been removed after its namespace's kuik-inject-imagealternative-quay was first written
    And the kubelet must have pulled for web-1 in team-a with no failed attempt

  Scenario: A pod the webhook left alone should not be gated
    Given the namespace team-a
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
    When a pod web-1 using docker.io/acme/app:1.0 is created in team-a
    Then the pod web-1 in team-a must run docker.io/acme/app:1.0
    And the pod web-1 in team-a must not be gated

  Scenario: A pod rewritten by two resources should wait until both of its Secrets are there
    Given the namespace team-a
    And the Secret tools-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/tools | tools    | t00ls    |
    And the registry quay.io serves quay.io/tools/tool:1.0 to tools:t00ls only
    And the registry docker.io serves docker.io/acme/tool:1.0 to anyone
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
    And the ImageAlternative tools:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: docker.io/acme/tool
        - repository: quay.io/tools/tool
          auth:
            secretRef: {name: tools-pull}
      """
    And the registry docker.io is down
    And 2 seconds pass
    When the API server answers every request about kuik-inject-imagealternative-tools with 503 for 10 seconds
    And a pod web-1 using docker.io/acme/app:1.0 and docker.io/acme/tool:1.0 is created in team-a
    And 5 seconds pass
    Then team-a must have the Secret kuik-inject-imagealternative-quay
    And the pod web-1 in team-a must be gated by kuik.enix.io/pull-secret
    And the pod web-1 in team-a must be Running within 20 seconds
    And the gate of web-1 in team-a must have been removed after its namespace's kuik-inject-imagealternative-tools was first written
    And the kubelet must have pulled for web-1 in team-a with no failed attempt

  Scenario: A pod that names its node should be rewritten and created ungated, as Kubernetes refuses a node and a gate together
    Given the namespace team-a
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
    And the registry docker.io is down
    And 2 seconds pass
    When a pod debugger using docker.io/acme/app:1.0 on the node node-1 is created in team-a
    Then the pod debugger in team-a must run quay.io/acme/app:1.0
    And the pod debugger in team-a must not be gated
    And the pod debugger in team-a must be Running within 3 seconds

  Scenario: With the syncer down, a gated pod should go on at the bound with a Warning Event, and new pods should not be gated once its Lease is stale
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
    When the namespace team-new is created
    And 100 milliseconds pass
    And the syncer crashes
    And a pod web-1 using docker.io/acme/app:1.0 is created in team-new
    Then the pod web-1 in team-new must be gated by kuik.enix.io/pull-secret
    When 29 seconds pass
    Then the pod web-1 in team-new must be gated by kuik.enix.io/pull-secret
    And the kubelet must not have pulled for web-1 in team-new
    When 2 seconds pass
    Then the pod web-1 in team-new must not be gated
    And the pod web-1 in team-new must have a Warning event PullSecretNotReady saying "the pod's pull secret was not in place 30s after its creation (is the secret-syncer running?): its scheduling gate kuik.enix.io/pull-secret was removed so that it starts anyway, and its first pull may fail and be retried"
    And 1 pod must have been released by the bound
    And the kubelet's first pull for web-1 in team-new must fail for want of a credential
    When a pod web-2 using docker.io/acme/app:1.0 is created in team-new
    Then the pod web-2 in team-new must not be gated

  Scenario: A syncer that restarts should release the pods its previous incarnation left gated, once it applied their Secrets
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
    When the namespace team-new is created
    And 100 milliseconds pass
    And a pod web-1 using docker.io/acme/app:1.0 is created in team-new
    And the syncer crashes
    And 5 seconds pass
    Then the pod web-1 in team-new must be gated by kuik.enix.io/pull-secret
    When the syncer starts
    Then the pod web-1 in team-new must be Running within 5 seconds
    And the gate of web-1 in team-new must have been removed after its namespace's kuik-inject-imagealternative-quay was first written
    And the kubelet must have pulled for web-1 in team-new with no failed attempt
    And the pod web-1 in team-new must have exactly 0 Warning events PullSecretNotReady
    And 0 pods must have been released by the bound

  Scenario: An API outage shorter than the bound should hold a gated pod until the syncer's apply got through, and no longer
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
    When the namespace team-new is created
    And 100 milliseconds pass
    And a pod web-1 using docker.io/acme/app:1.0 is created in team-new
    And the API server answers every request with 503 for 10 seconds
    And 10 seconds pass
    Then the pod web-1 in team-new must be gated by kuik.enix.io/pull-secret
    And the pod web-1 in team-new must be Running within 20 seconds
    And the gate of web-1 in team-new must have been removed after its namespace's kuik-inject-imagealternative-quay was first written
    And the kubelet must have pulled for web-1 in team-new with no failed attempt
    And the pod web-1 in team-new must have exactly 0 Warning events PullSecretNotReady

  Scenario: A pod created right after a source rotation should wait until its Secret holds the rotated credential
    Given the namespace team-a
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
    And team-a's kuik-inject-imagealternative-quay must hold acme:s3cret for quay.io/acme/app
    When the Secret quay-pull in kuik-system is changed to hold the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | rotated  |
    And the registry quay.io serves quay.io/acme/app:1.0 to acme:rotated only
    And the registry quay.io no longer accepts acme:s3cret
    And 100 milliseconds pass
    And a pod web-1 using docker.io/acme/app:1.0 is created in team-a
    Then the pod web-1 in team-a must be gated by kuik.enix.io/pull-secret
    And team-a's kuik-inject-imagealternative-quay must hold acme:s3cret for quay.io/acme/app
    And the pod web-1 in team-a must be Running within 3 seconds
    And the kubelet must have pulled for web-1 in team-a with no failed attempt
    And team-a's kuik-inject-imagealternative-quay must hold acme:rotated for quay.io/acme/app

  @the-policy-refuses-the-syncer
  Scenario Outline: The policy should let kuik remove its gate from a pod, and refuse it <change>
    Given the namespace team-a
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
    And the syncer stops
    And a pod web-1 using docker.io/acme/app:1.0 is created in team-a
    And the pod web-1 in team-a must be gated by kuik.enix.io/pull-secret
    When the syncer's identity patches the pod web-1 in team-a:
      """json
      <patch>
      """
    Then the write must be refused saying "<refusal>"
    When the webhook's identity patches the pod web-1 in team-a:
      """json
      <patch>
      """
    Then the write must be refused saying "<refusal>"
    When the syncer's identity patches the pod web-1 in team-a:
      """json
      [{"op": "remove", "path": "/spec/schedulingGates/0"}]
      """
    Then the write must have passed
    And the pod web-1 in team-a must not be gated

    Examples:
      | change                          | patch                                                                                                              | refusal                                                           |
      | any other change of its image   | [{"op": "replace", "path": "/spec/containers/0/image", "value": "evil.example/app:1"}, {"op": "remove", "path": "/spec/schedulingGates/0"}] | may change nothing of a pod but its scheduling gate               |
      | a label                         | [{"op": "add", "path": "/metadata/labels/stolen", "value": "yes"}, {"op": "remove", "path": "/spec/schedulingGates/0"}]                    | may change nothing of a pod but its scheduling gate               |
      | an annotation                   | [{"op": "add", "path": "/metadata/annotations/stolen", "value": "yes"}]                                                                   | may only remove the scheduling gate kuik.enix.io/pull-secret      |
      | a toleration                    | [{"op": "add", "path": "/spec/tolerations", "value": [{"key": "node-role", "operator": "Exists"}]}]                                      | may only remove the scheduling gate kuik.enix.io/pull-secret      |

  Scenario: A person may still change a gated pod as Kubernetes allows
    Given the namespace team-a
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
    And the syncer stops
    And a pod web-1 using docker.io/acme/app:1.0 is created in team-a
    When a person patches the pod web-1 in team-a:
      """json
      [{"op": "add", "path": "/metadata/labels/team", "value": "a"}]
      """
    Then the write must have passed
    And the pod web-1 in team-a must be gated by kuik.enix.io/pull-secret

  Scenario: Until the policy that bounds the pod patches is in place, no pod is gated and no Secret written
    Helm creates the ValidatingAdmissionPolicies after the Deployments, and deletes them first on
    uninstall: the webhook and the syncer watch the pod-gates policy and its binding by name, and
    neither patches a pod while either is missing. The webhook gates no new pod then (nothing could
    release it), and the syncer, whose writes the policy bounds too, writes nothing.

    Given the namespace team-a
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
    When the administrator deletes the ValidatingAdmissionPolicyBinding kuik-pod-gates
    And 1 second passes
    And the registry docker.io is down
    And a pod web-1 using docker.io/acme/app:1.0 is created in team-a
    And 5 seconds pass
    Then the pod web-1 in team-a must not be gated
    And team-a must not have the Secret kuik-inject-imagealternative-quay
    And the syncer must not be ready, saying "the ValidatingAdmissionPolicyBinding kuik-pod-gates does not exist"
