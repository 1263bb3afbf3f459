Feature: Provider credentials
  An entry whose auth is a provider gets its credential from a credential provider plugin, the
  kind every cloud ships for the kubelet (cloud-provider-aws's ecr-credential-provider, the GCP and
  Azure ones), declared once in the chart's providers in the shape of the kubelet's
  CredentialProviderConfig and run by the syncer over the kubelet's exec protocol, with the
  syncer's own cloud identity. With injectPullSecret: true the credential goes into the same
  kuik-inject-* Secrets as any other. The syncer keeps what it minted in a kuik-provider-* Secret
  of its install namespace, so that a restart mints nothing and the webhook probes with it.

  The bound: a credential is minted again at half its validity; no kuik-inject-* Secret holds one
  with less than minValidity left (15 minutes by default): it leaves a minute before that, so that
  the write lands in time; an expired one is never written. When the plugin fails, the last
  credential serves until that bound, with a Warning Event ProviderCredentialFailed and the
  condition ProviderCredentialsValid. The clouds here are simulated: ECR's tokens last 12 hours,
  and the registry refuses a token once it has expired.
  (https://kubernetes.io/docs/tasks/administer-cluster/kubelet-credential-provider/,
  https://kubernetes.io/docs/reference/config-api/kubelet-credentialprovider.v1/,
  https://docs.aws.amazon.com/AmazonECR/latest/APIReference/API_GetAuthorizationToken.html)

  In this project: docs/behaviour.md#provider-credentials,
  docs/decisions/0066-the-validity-bound-of-provider-credentials.md

  Background:
    Given the cloud provider ecr-credential-provider issues 12-hour tokens for the registry 123456789012.dkr.ecr.eu-west-1.amazonaws.com
    And the chart's providers list ecr-credential-provider for *.dkr.ecr.*.amazonaws.com
    And the registry 123456789012.dkr.ecr.eu-west-1.amazonaws.com serves 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app:1.0 to the tokens of ecr-credential-provider
    And the registry docker.io serves docker.io/acme/app:1.0 to anyone
    And the namespace team-a

  Scenario: Over 48 hours of 12-hour tokens and restarts, every pod should pull with a valid credential
    Given kuik is installed in the namespace kuik-system with its providers
    And the bound of provider credentials is watched
    And the ImageAlternative ecr:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: docker.io/acme/app
        - repository: 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app
          auth:
            provider: ecr-credential-provider
            injectPullSecret: true
      """
    And 10 seconds pass
    When a pod using docker.io/acme/app:1.0 is created in team-a every 20 minutes, each deleted 1 hour later, for 48 hours
    And the syncer crashes and restarts every 7 hours for 48 hours
    And 48 hours pass
    Then no pull from 123456789012.dkr.ecr.eu-west-1.amazonaws.com must have been refused
    And the pod web-144 in team-a must run 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app:1.0
    And no Secret must ever have held a provider credential with less than minValidity left
    And the plugin ecr-credential-provider must have run 9 times
    And team-a's kuik-inject-imagealternative-ecr must hold a token of ecr-credential-provider for 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app with more than 6 hours left
    And kuik-system must keep the credential of ecr-credential-provider for the registry 123456789012.dkr.ecr.eu-west-1.amazonaws.com, expiring 12 hours after it was minted

  Scenario: A plugin outage shorter than the margin should change nothing a pod sees
    Given kuik is installed in the namespace kuik-system with its providers
    And the bound of provider credentials is watched
    And the ImageAlternative ecr:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: docker.io/acme/app
        - repository: 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app
          auth:
            provider: ecr-credential-provider
            injectPullSecret: true
      """
    And 10 seconds pass
    When a pod using docker.io/acme/app:1.0 is created in team-a every 20 minutes, each deleted 1 hour later, for 14 hours
    And 5 hours pass
    And the cloud provider ecr-credential-provider is down for 5 hours
    And 3 hours pass
    Then the ImageAlternative ecr's condition ProviderCredentialsValid must be True with reason MintFailing saying "its last mint failed"
    And the ImageAlternative ecr must have 1 Warning event ProviderCredentialFailed
    And the ImageAlternative ecr must have a Warning event ProviderCredentialFailed saying "the plugin exited with status 1"
    And team-a's kuik-inject-imagealternative-ecr must hold a token of ecr-credential-provider for 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app with more than 3 hours left
    When 6 hours pass
    Then no pull from 123456789012.dkr.ecr.eu-west-1.amazonaws.com must have been refused
    And no Secret must ever have held a provider credential with less than minValidity left
    And the ImageAlternative ecr's condition ProviderCredentialsValid must be True with reason CredentialsMinted saying "expires at"

  Scenario: A plugin outage longer than the margin should take the credential out before it is too short, and bring a new one back
    Once the last credential has minValidity and a minute left, it leaves every Secret, and the
    webhook stops routing pods to the registry it was for: a pod created meanwhile runs from the
    original, and no pull is refused.

    Given kuik is installed in the namespace kuik-system with its providers
    And the bound of provider credentials is watched
    And the ImageAlternative ecr:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: docker.io/acme/app
        - repository: 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app
          auth:
            provider: ecr-credential-provider
            injectPullSecret: true
      """
    And 10 seconds pass
    When a pod using docker.io/acme/app:1.0 is created in team-a every 20 minutes, each deleted 1 hour later, for 16 hours
    And 5 hours pass
    And the cloud provider ecr-credential-provider is down for 8 hours
    And 7 hours pass
    Then team-a's kuik-inject-imagealternative-ecr must hold no credential for 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app
    And the ImageAlternative ecr's condition ProviderCredentialsValid must be False with reason NoValidCredential saying "could not mint"
    And the ImageAlternative ecr must have a Warning event PullSecretInjectionFailed saying "no credential with more than minValidity left"
    When a pod web-late using docker.io/acme/app:1.0 is created in team-a
    Then the pod web-late in team-a must run docker.io/acme/app:1.0
    When 4 hours pass
    Then team-a's kuik-inject-imagealternative-ecr must hold a token of ecr-credential-provider for 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app with more than 8 hours left
    And no pull from 123456789012.dkr.ecr.eu-west-1.amazonaws.com must have been refused
    And no Secret must ever have held a provider credential with less than minValidity left

  Scenario Outline: A plugin that <misbehaves> should count as failing, never as an answer, and the last credential should serve until the bound
    Given kuik is installed in the namespace kuik-system with its providers
    And the bound of provider credentials is watched
    And the ImageAlternative ecr:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: docker.io/acme/app
        - repository: 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app
          auth:
            provider: ecr-credential-provider
            injectPullSecret: true
      """
    And 10 seconds pass
    When a pod using docker.io/acme/app:1.0 is created in team-a every 20 minutes, each deleted 1 hour later, for 13 hours
    And the cloud provider ecr-credential-provider <misbehaves> from now on
    And 7 hours pass
    Then the ImageAlternative ecr's condition ProviderCredentialsValid must be True with reason MintFailing saying "its last mint failed"
    And the ImageAlternative ecr must have a Warning event ProviderCredentialFailed saying "<says>"
    And team-a's kuik-inject-imagealternative-ecr must hold a token of ecr-credential-provider for 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app with more than 4 hours left
    When 5 hours pass
    Then team-a's kuik-inject-imagealternative-ecr must hold no credential for 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app
    And no pull from 123456789012.dkr.ecr.eu-west-1.amazonaws.com must have been refused
    And no Secret must ever have held a provider credential with less than minValidity left

    Examples:
      | misbehaves                   | says                                    |
      | hangs                        | the plugin did not answer within 1m     |
      | answers garbage              | stdout is not a JSON object             |
      | answers for another registry | none of which serves                    |

  Scenario: A rotation of the provider's configuration should mint at once, while a plain restart mints nothing
    Given kuik is installed in the namespace kuik-system with its providers
    And the ImageAlternative ecr:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: docker.io/acme/app
        - repository: 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app
          auth:
            provider: ecr-credential-provider
            injectPullSecret: true
      """
    And 1 hour passes
    When the syncer crashes
    And the syncer starts
    And 1 minute passes
    Then the plugin ecr-credential-provider must have run 1 time
    When the configuration of the provider ecr-credential-provider changes to the arguments "get-credentials --role-arn arn:aws:iam::123456789012:role/kuik-pull"
    And 1 minute passes
    Then the plugin ecr-credential-provider must have run 2 times
    And team-a's kuik-inject-imagealternative-ecr must hold a token of ecr-credential-provider for 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app with more than 11 hours left
    And the ImageAlternative ecr's condition CredentialsAccepted must be True with reason CredentialsAccepted saying "123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app: accepted by 123456789012.dkr.ecr.eu-west-1.amazonaws.com"
    And no trace line and no Event of the ImageAlternative ecr must hold ecr-credential-provider-token-2

  Scenario: With pull secret first, the first pod rewritten to a provider entry should wait until its namespace holds the credential, then pull once
    Given the cloud provider ecr-credential-provider takes 20 seconds to answer
    And kuik is installed in the namespace kuik-system with its providers and pull secret first, the gate bound to 30 seconds
    And the ImageAlternative ecr:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: docker.io/acme/app
        - repository: 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app
          auth:
            provider: ecr-credential-provider
            injectPullSecret: true
      """
    And the registry docker.io is down
    And 25 seconds pass
    When a pod web-1 using docker.io/acme/app:1.0 is created in team-a
    Then the pod web-1 in team-a must run 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app:1.0
    And the pod web-1 in team-a must be gated by kuik.enix.io/pull-secret
    And the pod web-1 in team-a must be Running within 3 seconds
    And the kubelet must have pulled for web-1 in team-a with no failed attempt

  Scenario: Without pull secret first, a pod rewritten before its namespace holds the credential should fail its first pull and run after
    Given the cloud provider ecr-credential-provider takes 20 seconds to answer
    And kuik is installed in the namespace kuik-system with its providers
    And the ImageAlternative ecr:
      """yaml
      spec:
        rewritePolicy: OnFailure
        alternatives:
        - repository: docker.io/acme/app
        - repository: 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app
          auth:
            provider: ecr-credential-provider
            injectPullSecret: true
      """
    And the registry docker.io is down
    And 25 seconds pass
    When a pod web-1 using docker.io/acme/app:1.0 is created in team-a
    Then the pod web-1 in team-a must run 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app:1.0
    And the kubelet's first pull for web-1 in team-a must fail for want of a credential
    And the pod web-1 in team-a must be Running within 20 seconds

  Scenario: A provider entry without injectPullSecret should be left out, and the plugin never run
    Given kuik is installed in the namespace kuik-system with its providers
    And the ImageAlternative ecr:
      """yaml
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app
          auth:
            provider: ecr-credential-provider
      """
    And 10 seconds pass
    Then the plugin ecr-credential-provider must have run 0 times
    And team-a must not have the Secret kuik-inject-imagealternative-ecr

  Scenario: kuik plan should show a provider entry's key as minted at run time
    Given kuik is installed in the namespace kuik-system with its providers
    And the manifests ecr:
      """yaml
      apiVersion: v1
      kind: Namespace
      metadata: {name: shop}
      ---
      apiVersion: kuik.enix.io/v1alpha1
      kind: ImageAlternative
      metadata: {name: ecr}
      spec:
        rewritePolicy: Always
        alternatives:
        - repository: docker.io/acme/app
        - repository: 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app
          auth: {provider: ecr-credential-provider, injectPullSecret: true}
      """
    When kuik plan runs on the manifests ecr
    Then kuik plan must have found no problem
    And kuik plan must show shop's kuik-inject-imagealternative-ecr holding 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app, minted at run time by provider ecr-credential-provider
