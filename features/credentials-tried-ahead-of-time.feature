Feature: Credentials tried ahead of time
  A credential that its registry refuses would otherwise show up first as a pod in
  ImagePullBackOff. So the syncer runs the registry's token flow for a pull with the very
  credential it writes for each entry whose auth injects: GET /v2/, then Basic, or a Bearer token
  from the realm for the entry's path. It tries each registry and credential as soon as an entry or
  its source Secret brings it, and then at most once per resync period (10 minutes here), so that a
  wrong password never locks an account out. The answer is the routing resource's condition
  CredentialsAccepted and its status.credentials; a refusal is also a Warning Event
  PullSecretCredentialRefused, once, and the metric kuik_syncer_credential_trials_total. The
  trials run off the syncer's core, on the registries' own time; no credential is ever logged.

  Upstream: https://distribution.github.io/distribution/spec/auth/token/
  Upstream: https://github.com/opencontainers/distribution-spec/blob/main/spec.md#determining-support
  In this project: docs/behaviour.md#credentials-tried-ahead-of-time

  Background:
    Given kuik is installed in the namespace kuik-system
    And the registry quay.io serves quay.io/acme/app:1.0 to acme:s3cret only
    And the namespace team-a labelled tier=prod

  Scenario: A credential the registry accepts should show CredentialsAccepted True, with no Event
    Given the Secret quay-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the ImageAlternative quay:
      """yaml
      spec:
        alternatives:
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: quay-pull}
      """
    When 10 seconds pass
    Then `kubectl get imagealternatives` must show:
      | NAME                               | VALID | CREDENTIALS |
      | imagealternative.kuik.enix.io/quay | True  | True        |
    And the ImageAlternative quay's condition CredentialsAccepted must be True with reason CredentialsAccepted saying "quay.io/acme/app: accepted by quay.io"
    And the ImageAlternative quay's status must show the credentials:
      | entry            | registry | outcome  | answer holds |
      | quay.io/acme/app | quay.io  | Accepted | 200          |
    And the registry quay.io must have been asked to try a credential 1 time
    And the ImageAlternative quay must have 0 Warning events PullSecretCredentialRefused
    And the metric kuik_syncer_credential_trials_total{result="accepted"} must be 1

  Scenario: A credential the registry refuses should show False with its answer, and one Event, before any pod
    No pod runs yet: the refusal is known before the first pull would fail. Tried again at each
    resync period, the same refusal gives no second Event.

    Given the Secret quay-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | wrong    |
    And the ImageAlternative quay:
      """yaml
      spec:
        alternatives:
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: quay-pull}
      """
    When 10 seconds pass
    Then `kubectl get imagealternatives` must show:
      | NAME                               | VALID | CREDENTIALS |
      | imagealternative.kuik.enix.io/quay | True  | False       |
    And the ImageAlternative quay's condition CredentialsAccepted must be False with reason CredentialRefused saying "quay.io/acme/app: refused by quay.io (GET /v2/ answered 401 UNAUTHORIZED"
    And the ImageAlternative quay's status must show the credentials:
      | entry            | registry | outcome | answer holds |
      | quay.io/acme/app | quay.io  | Refused | 401          |
    And the ImageAlternative quay must have a Warning event PullSecretCredentialRefused saying "the credential of quay.io/acme/app was refused by quay.io for a pull"
    And the metric kuik_syncer_credential_trials_total{result="refused"} must be 1
    When 25 minutes pass
    Then the registry quay.io must have been asked to try a credential 3 times
    And the ImageAlternative quay must have 1 Warning event PullSecretCredentialRefused
    And no trace line and no Event of the ImageAlternative quay must hold wrong
    And the syncer must not have read any Secret outside kuik-system

  Scenario: A password fixed in the source Secret should be tried at once and turn the condition True
    Given the Secret quay-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | wrong    |
    And the ImageAlternative quay:
      """yaml
      spec:
        alternatives:
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: quay-pull}
      """
    And 10 seconds pass
    When the Secret quay-pull in kuik-system is changed to hold the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And 10 seconds pass
    Then `kubectl get imagealternatives` must show:
      | NAME                               | VALID | CREDENTIALS |
      | imagealternative.kuik.enix.io/quay | True  | True        |
    And the registry quay.io must have been asked to try a credential 2 times

  Scenario: A registry that does not answer should leave the condition Unknown until it is back
    Down, it says neither yes nor no: Unknown, with no Event. The credential is tried again at the
    next resync period, not before, and then accepted.

    Given the registry quay.io is down
    And the Secret quay-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | s3cret   |
    And the ImageAlternative quay:
      """yaml
      spec:
        alternatives:
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: quay-pull}
      """
    When 10 seconds pass
    Then `kubectl get imagealternatives` must show:
      | NAME                               | VALID | CREDENTIALS |
      | imagealternative.kuik.enix.io/quay | True  | Unknown     |
    And the ImageAlternative quay's condition CredentialsAccepted must be Unknown with reason RegistryUnreachable saying "quay.io/acme/app: quay.io did not answer"
    And the ImageAlternative quay must have 0 Warning events PullSecretCredentialRefused
    And the metric kuik_syncer_credential_trials_total{result="unreachable"} must be 1
    When the registry quay.io is up
    And 5 minutes pass
    Then `kubectl get imagealternatives` must show:
      | NAME                               | VALID | CREDENTIALS |
      | imagealternative.kuik.enix.io/quay | True  | Unknown     |
    When 6 minutes pass
    Then `kubectl get imagealternatives` must show:
      | NAME                               | VALID | CREDENTIALS |
      | imagealternative.kuik.enix.io/quay | True  | True        |

  Scenario: helm test should fail, saying why, when a registry refuses a credential
    Given the Secret quay-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | wrong    |
    And the ImageAlternative quay:
      """yaml
      spec:
        alternatives:
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: quay-pull}
      """
    And 10 seconds pass
    When `helm test kuik` runs
    Then the test must fail with the rows:
      | check       | result | saying                                                                                              |
      | credentials | fail   | a registry refused a credential kuik injects (pods pulling with it will fail): ImageAlternative/quay |

  Scenario: A registry that echoes the credential it refuses should find no form of it in the status, an Event or the trace
    Given the registry quay.io echoes the credentials it refuses
    And the Secret quay-pull in kuik-system holds the credentials:
      | registry path | username | password    |
      | quay.io/acme  | acme     | wr0ng+p@ss/ |
    And the ImageAlternative quay:
      """yaml
      spec:
        alternatives:
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: quay-pull}
      """
    When 10 seconds pass
    Then the ImageAlternative quay's condition CredentialsAccepted must be False with reason CredentialRefused saying "bad credentials in header Basic <redacted> (password=<redacted>)"
    And nothing kuik wrote about the ImageAlternative quay must hold any form of acme:wr0ng+p@ss/

  Scenario: A source that flips between a wrong and a right password every second for an hour should see each tried once per period
    Every change of the source brings back a credential already tried within the resync period:
    its trial waits for the period, whatever the churn, so that the wrong one never locks the
    account out (an hour is six periods of ten minutes).

    Given the Secret quay-pull in kuik-system holds the credentials:
      | registry path | username | password |
      | quay.io/acme  | acme     | wrong    |
    And the ImageAlternative quay:
      """yaml
      spec:
        alternatives:
        - repository: quay.io/acme/app
          auth:
            secretRef: {name: quay-pull}
      """
    When the Secret quay-pull in kuik-system flips every second between acme:wrong and acme:s3cret for quay.io/acme during 60 minutes
    Then the registry quay.io must have refused at most 7 logins
    And the registry quay.io must have accepted at most 7 logins
