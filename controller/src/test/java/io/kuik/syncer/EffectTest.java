package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.kuik.model.ProviderCredential;
import io.kuik.model.ProviderExchange;
import io.kuik.model.Redactor;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the effects show of the credentials they carry: an Event none, a store's line none. */
class EffectTest {

  static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");
  static final RegistryCredential ALICE = RegistryCredential.basic("alice", "s3cret-pass");

  @Test
  void aRedactedEventLosesEveryFormOfTheCredentialAndOneWithoutAnyIsLeftAsItIs() {
    Redactor redactor = Redactor.of(List.of(ALICE));
    Effect.RecordEvent echoed =
        Effect.RecordEvent.onResource(
            ACME, "uid", Effect.RecordEvent.Type.Warning, "R", "the registry said s3cret-pass");
    Effect.RecordEvent plain =
        Effect.RecordEvent.onResource(
            ACME, "uid", Effect.RecordEvent.Type.Warning, "R", "the registry said no");

    Effect.RecordEvent shown = echoed.redacted(redactor);

    assertEquals("the registry said " + Redactor.MARK, shown.message());
    assertEquals(echoed.reason(), shown.reason());
    assertEquals(ACME, shown.resource());
    assertSame(plain, plain.redacted(redactor));
  }

  @Test
  void aStoresLineNamesTheSecretAndHoldsNoCredential() {
    Effect.StoreProviderCredential store =
        new Effect.StoreProviderCredential(
            new SecretBuilder()
                .withNewMetadata()
                .withName("kuik-provider-ecr")
                .endMetadata()
                .build(),
            new ProviderCredential(
                "ecr",
                new ProviderCredential.Slot(ProviderExchange.CacheKeyType.Registry, "quay.io"),
                "digest",
                Map.of("quay.io", ALICE),
                Instant.EPOCH,
                Instant.EPOCH.plusSeconds(3600)));

    String line = store.toString();

    assertTrue(line.startsWith("StoreProviderCredential[kuik-provider-ecr, "), line);
    assertFalse(Redactor.of(List.of(ALICE)).shows(line), line);
  }
}
