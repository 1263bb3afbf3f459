package io.kuik.routing;

import static io.kuik.routing.Fixtures.alternative;
import static io.kuik.routing.Fixtures.pod;
import static io.kuik.routing.Fixtures.repository;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.model.Auth;
import io.kuik.model.ProviderCredential;
import io.kuik.model.ProviderExchange;
import io.kuik.model.ProviderSecrets;
import io.kuik.model.RegistryCredential;
import io.kuik.model.RewritePolicy;
import io.kuik.ports.RegistryProber.Probe;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The webhook probes a provider candidate with the credential the syncer minted and keeps in the
 * install namespace, the one the pod will pull with, while it is unexpired; anonymously otherwise
 * (docs/behaviour.md#provider-credentials).
 */
class ProviderProbeTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final String ECR = "123456789012.dkr.ecr.eu-west-1.amazonaws.com";
  static final RegistryCredential TOKEN = RegistryCredential.basic("AWS", "t0ken");
  static final Secret KEPT =
      ProviderSecrets.secret(
          "kuik-system",
          new ProviderCredential(
              "ecr",
              new ProviderCredential.Slot(ProviderExchange.CacheKeyType.Registry, ECR),
              "digest",
              Map.of(ECR, TOKEN),
              T0,
              T0.plus(Duration.ofHours(12))));

  private static RegistryCredential probedWith(Instant now, Auth auth) {
    return probedWith(now, auth, KEPT);
  }

  private static RegistryCredential probedWith(Instant now, Auth auth, Secret kept) {
    MapProber prober = new MapProber();
    new Router(
            prober,
            name ->
                name.equals(kept.getMetadata().getName()) ? Optional.of(kept) : Optional.empty(),
            () -> now)
        .route(
            io.kuik.routing.RoutingIndex.of(
                List.of(
                    alternative(
                        "acme",
                        RewritePolicy.ALWAYS,
                        repository(0, ECR + "/acme/nginx", auth),
                        repository(1, "docker.io/library/nginx")))),
            pod("nginx:1.27"),
            Map.of());
    Probe probe =
        prober.asked.stream()
            .filter(p -> p.image().registry().equals(ECR))
            .findFirst()
            .orElseThrow();
    return probe.credential();
  }

  @Test
  void aProviderCandidateIsProbedWithTheKeptCredentialUntilItExpires() {
    assertEquals(TOKEN, probedWith(T0.plus(Duration.ofHours(11)), new Auth(null, "ecr", true)));
    assertNull(probedWith(T0.plus(Duration.ofHours(12)), new Auth(null, "ecr", true)), "expired");
    assertNull(probedWith(T0, new Auth(null, "gcr", true)), "another provider keeps none");
  }

  @Test
  void notPastTheTimeItLeavesThePodsSecrets() {
    Secret leaving =
        ProviderSecrets.secret(
            "kuik-system",
            ProviderSecrets.read(KEPT).orElseThrow(),
            T0.plus(Duration.ofHours(12)).minus(Duration.ofMinutes(16)));
    Instant after = T0.plus(Duration.ofHours(11)).plus(Duration.ofMinutes(45));
    assertEquals(
        TOKEN,
        probedWith(after.minus(Duration.ofMinutes(2)), new Auth(null, "ecr", true), leaving));
    assertNull(probedWith(after, new Auth(null, "ecr", true), leaving), "past minValidity");
  }
}
