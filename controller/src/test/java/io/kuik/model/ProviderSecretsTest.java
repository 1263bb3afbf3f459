package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Secret;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The kuik-provider-* Secret that keeps a minted credential in the install namespace: named from
 * its provider and slot alone, read back to the same credential, and ignored when it is not one.
 */
class ProviderSecretsTest {

  static final String ECR = "123456789012.dkr.ecr.eu-west-1.amazonaws.com";
  static final ProviderCredential CREDENTIAL =
      new ProviderCredential(
          "ecr-credential-provider",
          new ProviderCredential.Slot(ProviderExchange.CacheKeyType.Registry, ECR),
          "0123456789abcdef",
          Map.of(ECR, RegistryCredential.basic("AWS", "token")),
          Instant.parse("2026-01-01T00:00:00Z"),
          Instant.parse("2026-01-01T12:00:00Z"));

  @Test
  void aCredentialIsKeptAndReadBackWhole() {
    Secret secret = ProviderSecrets.secret("kuik-system", CREDENTIAL);

    assertEquals("kubernetes.io/dockerconfigjson", secret.getType());
    assertEquals(
        "kuik-secret-syncer", secret.getMetadata().getLabels().get("app.kubernetes.io/managed-by"));
    assertTrue(secret.getMetadata().getName().startsWith("kuik-provider-ecr-credential-provider-"));
    assertTrue(Dns1123.isSubdomain(secret.getMetadata().getName()));
    assertEquals(Optional.of(CREDENTIAL), ProviderSecrets.read(secret));
    assertEquals(
        List.of(CREDENTIAL),
        ProviderSecrets.kept(
            CREDENTIAL.provider(),
            ECR + "/acme/app",
            name ->
                name.equals(secret.getMetadata().getName())
                    ? Optional.of(secret)
                    : Optional.empty()));
  }

  @Test
  void theNameFollowsProviderAndSlotOnly() {
    ProviderCredential.Slot global =
        new ProviderCredential.Slot(ProviderExchange.CacheKeyType.Global, "");
    assertEquals(
        ProviderSecrets.name("ecr", CREDENTIAL.slot()),
        ProviderSecrets.name("ecr", CREDENTIAL.slot()));
    assertNotEquals(
        ProviderSecrets.name("ecr", CREDENTIAL.slot()), ProviderSecrets.name("ecr", global));
    assertNotEquals(ProviderSecrets.name("ecr", global), ProviderSecrets.name("gcr", global));
    assertTrue(ProviderSecrets.name("a".repeat(250), global).length() <= SecretNames.MAX_LENGTH);
  }

  @Test
  void aSecretUnderAnotherNameOrWithAFieldMissingIsNoCredential() {
    Secret renamed = ProviderSecrets.secret("kuik-system", CREDENTIAL);
    renamed.getMetadata().setName("kuik-provider-handmade");
    assertEquals(Optional.empty(), ProviderSecrets.read(renamed));

    Secret partial = ProviderSecrets.secret("kuik-system", CREDENTIAL);
    partial.getData().remove("expires-at");
    assertEquals(Optional.empty(), ProviderSecrets.read(partial));
  }

  @Test
  void theKubeletsLookupOrderIsImageThenRegistryThenEveryImage() {
    assertEquals(
        List.of(
            new ProviderCredential.Slot(ProviderExchange.CacheKeyType.Image, ECR + "/acme/app"),
            new ProviderCredential.Slot(ProviderExchange.CacheKeyType.Registry, ECR),
            new ProviderCredential.Slot(ProviderExchange.CacheKeyType.Global, "")),
        ProviderCredential.Slot.of(ECR + "/acme/app"));
    assertEquals(CREDENTIAL.refreshAt(), Instant.parse("2026-01-01T06:00:00Z"));
  }
}
