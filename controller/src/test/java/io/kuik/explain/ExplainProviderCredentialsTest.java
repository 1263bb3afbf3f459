package io.kuik.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.model.Auth;
import io.kuik.model.CredentialProvider;
import io.kuik.model.Entry;
import io.kuik.model.EntryForm;
import io.kuik.model.ProviderCredential;
import io.kuik.model.ProviderExchange;
import io.kuik.model.ProviderSecrets;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResource;
import io.kuik.model.Validated;
import io.kuik.syncer.ProviderSettings;
import io.kuik.syncer.SyncerSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code kuik explain} on a pod routed through a provider entry: the credential the syncer writes
 * and when it expires, from the one kept in the install namespace; none when it is missing or too
 * close to its expiry (the syncer mints it at run time).
 */
class ExplainProviderCredentialsTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final String ECR = "123456789012.dkr.ecr.eu-west-1.amazonaws.com";
  static final String IMAGE = ECR + "/acme/app";
  static final CredentialProvider PROVIDER =
      new CredentialProvider(
          "ecr",
          List.of("*.dkr.ecr.*.amazonaws.com"),
          Duration.ZERO,
          CredentialProvider.PROTOCOL_V1,
          List.of(),
          List.of());
  static final SyncerSettings SETTINGS =
      SyncerSettings.defaults("kuik-system")
          .withProviders(ProviderSettings.of(Map.of("ecr", PROVIDER)));

  private static Explanation explain(Instant now, Secret... kept) {
    Map<String, Secret> secrets = new java.util.TreeMap<>();
    for (Secret secret : kept) {
      secrets.put(secret.getMetadata().getName(), secret);
    }
    Validated resource =
        new Validated.Valid(
            new RoutingResource(
                new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme"),
                "uid-acme",
                null,
                null,
                RewritePolicy.ALWAYS,
                List.of(new Entry(0, EntryForm.REPOSITORY, IMAGE, new Auth(null, "ecr", true)))));
    Pod pod =
        new PodBuilder()
            .withNewMetadata()
            .withName("web")
            .withNamespace("team-a")
            .addToLabels(
                RewriteAnnotations.REWRITTEN_LABEL, RewriteAnnotations.REWRITTEN_LABEL_VALUE)
            .addToAnnotations(
                RewriteAnnotations.REWRITTEN_BY,
                RewriteAnnotations.writeMap(Map.of("app", "ImageAlternative/acme")))
            .endMetadata()
            .withNewSpec()
            .addNewContainer()
            .withName("app")
            .withImage(IMAGE + ":1.0")
            .endContainer()
            .withImagePullSecrets(new LocalObjectReference("kuik-inject-imagealternative-acme"))
            .endSpec()
            .build();
    ExplainInputs in =
        new ExplainInputs(
            "Pod team-a/web",
            pod,
            true,
            Optional.of(Map.of()),
            List.of(resource),
            Map.of(),
            secrets,
            List.of(pod),
            Map.of(),
            List.of());
    return new Explainer(SETTINGS, Explainer.NOT_PROBING, () -> now).explain(in);
  }

  private static Secret kept(Instant minted, Duration validity) {
    return ProviderSecrets.secret(
        "kuik-system",
        new ProviderCredential(
            "ecr",
            new ProviderCredential.Slot(ProviderExchange.CacheKeyType.Registry, ECR),
            PROVIDER.configDigest(),
            Map.of(ECR, RegistryCredential.basic("AWS", "t0ken")),
            minted,
            minted.plus(validity)));
  }

  @Test
  void showsTheKeptCredentialAndWhenItExpires() {
    Explanation e = explain(T0.plus(Duration.ofHours(2)), kept(T0, Duration.ofHours(12)));

    String minted = e.containers().get(0).minted();
    assertEquals(
        "provider ecr: minted at 2026-01-01T00:00:00Z, expires at 2026-01-01T12:00:00Z (10h"
            + " left; minted again at 2026-01-01T06:00:00Z)",
        minted);
    assertTrue(Explain.text(e).contains("minted:          " + minted), Explain.text(e));
    assertTrue(!Explain.text(e).contains("t0ken"), Explain.text(e));
  }

  @Test
  void aCredentialTooCloseToItsExpiryOrNoneAtAllIsMintedAtRunTime() {
    Instant late = T0.plus(Duration.ofHours(12)).minus(Duration.ofMinutes(10));
    for (Explanation e : List.of(explain(late, kept(T0, Duration.ofHours(12))), explain(T0))) {
      assertEquals(
          "provider ecr: none kept in kuik-system with more than minValidity left; the syncer"
              + " mints it at run time",
          e.containers().get(0).minted());
    }
  }
}
