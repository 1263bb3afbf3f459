Feature: Proof on your own cluster with helm test
  `helm test` runs `kuik selftest` in a pod of the release, under a ServiceAccount of its own that
  exists only while the test runs. It sends read requests and creates with dryRun=All only: the
  API server authorizes, admits and validates a dry run as the write it stands for, then stores
  nothing. It prints one row per check (check, result, why) and fails when a check fails, saying
  why. The simulated API server honours dryRun=All as a real one does, so the scenarios below run
  the production selftest against the chart's own RBAC, policy and webhook.

  Upstream: https://helm.sh/docs/topics/chart_tests/
  Upstream: https://kubernetes.io/docs/reference/using-api/api-concepts/#dry-run
  In this project: docs/behaviour.md#proof-on-your-cluster, chart/README.md#proof-on-your-cluster-helm-test

  Background:
    Given kuik is installed in the namespace kuik-system
    And 5 seconds pass

  Scenario: helm test should pass on a working release, with reads and dry runs only, and leave nothing behind
    When `helm test kuik` runs
    Then the test must pass with the rows:
      | check          | result | saying                                                                                                  |
      | policy         | pass   | ValidatingAdmissionPolicy kuik-pull-secrets of release kuik (kuik-system) is installed                  |
      | policy-binding | pass   | ValidatingAdmissionPolicyBinding kuik-pull-secrets binds kuik-pull-secrets with Deny                    |
      | reserved-names | pass   | refused by ValidatingAdmissionPolicy 'kuik-pull-secrets': Secrets named kuik-inject-* and kuik-provider-* |
      | syncer-ready   | pass   | kuik-secret-syncer: 1 of 1 replicas available; http://kuik-secret-syncer-metrics.kuik-system.svc:8080/readyz answered 200 |
      | webhook-ready  | pass   | kuik-webhook: 1 of 1 replicas available                                                                 |
      | pod-rewritten  | skip   | not asked                                                                                               |
      | credentials    | pass   | no ImageAlternative or ImageMirror reports a credential to try                                          |
    And the test must have sent only reads and dry-run creates, each allowed by the chart's RBAC
    And the API server must hold no Secret kuik-system/kuik-inject-selftest
    And the API server must hold no ServiceAccount kuik-system/kuik-selftest
    And the API server must hold no ClusterRole kuik-selftest
    And the API server must hold no RoleBinding kuik-system/kuik-selftest

  Scenario: helm test should fail, saying why, when the admission policy is missing
    Someone deleted the policy: the reserved names are no longer held, and the dry-run create
    that the policy must refuse goes through (and is not stored).

    When the administrator deletes the ValidatingAdmissionPolicy kuik-pull-secrets
    And `helm test kuik` runs
    Then the test must fail with the rows:
      | check          | result | saying                                                                                  |
      | policy         | fail   | no ValidatingAdmissionPolicy kuik-pull-secrets: without it the syncer may write any Secret |
      | policy-binding | pass   | binds kuik-pull-secrets with Deny                                                       |
      | reserved-names | fail   | the API server admitted a dry-run create of kuik-system/kuik-inject-selftest            |
    And the API server must hold no Secret kuik-system/kuik-inject-selftest

  Scenario: helm test should name why the syncer is not ready, in its pod's own words
    The policy's binding is gone: the syncer holds its writes and is not ready, so its Deployment
    has no available replica and its Service no endpoint. The row names why, from the /readyz of
    its pod: the very object the syncer waits for.

    When the administrator deletes the ValidatingAdmissionPolicyBinding kuik-pull-secrets
    And 1 second passes
    And `helm test kuik` runs
    Then the test must fail with the rows:
      | check          | result | saying                                                                                                                              |
      | policy-binding | fail   | no ValidatingAdmissionPolicyBinding kuik-pull-secrets                                                                               |
      | syncer-ready   | fail   | pod kuik-secret-syncer-0: /readyz answered 503: writes held: the ValidatingAdmissionPolicyBinding kuik-pull-secrets does not exist |

  Scenario: helm test should fail when the syncer is down
    When the syncer stops
    And 1 second passes
    And `helm test kuik` runs
    Then the test must fail with the rows:
      | check        | result | saying                                                       |
      | syncer-ready | fail   | Deployment kuik-system/kuik-secret-syncer: 0 of 1 replicas available |
      | webhook-ready | pass  | 1 of 1 replicas available                                    |

  Scenario: The pod check should see a dry-run pod come back rewritten and referencing its Secret
    Given the Secret quay-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the registry quay.io serves quay.io/acme/app:1.0 to acme:s3cret only
    And the namespace team-a
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
    And 5 seconds pass
    When `helm test kuik` runs with the pod check of docker.io/acme/app:1.0 in team-a
    Then the test must pass with the rows:
      | check         | result | saying                                                                                                                   |
      | pod-rewritten | pass   | a dry-run pod of docker.io/acme/app:1.0 in team-a was rewritten to quay.io/acme/app:1.0 by ImageAlternative/quay, referencing kuik-inject-imagealternative-quay |
    And the API server must hold no pods in team-a

  Scenario: The pod check should fail, saying why, when no routing resource covers the image
    Given the namespace team-a
    When `helm test kuik` runs with the pod check of docker.io/library/nginx:1.27 in team-a
    Then the test must fail with the rows:
      | check         | result | saying                                              |
      | pod-rewritten | fail   | a dry-run pod of docker.io/library/nginx:1.27 in team-a came back unchanged |
