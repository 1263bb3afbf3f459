package io.kuik.syncer;

import static io.kuik.syncer.SyncerHarness.alternative;
import static io.kuik.syncer.SyncerHarness.repository;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.DockerConfig;
import io.kuik.model.RegistryCredential;
import io.kuik.model.RewritePolicy;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Source Secrets shaped to cost (issue 24, bad input): one of about 50,000 auths entries within the
 * 1 MiB a Secret may hold, one nested thousands of levels deep. Each gets its clear outcome, stops
 * no other pair, and costs one read per change of the resource or the Secret, not one per pair:
 * {@code LargeSourceBenchmark} prints what one such read costs.
 */
class LargeSourcesTest {

  static final String SECRET = "kuik-inject-imagealternative-acme";

  /** About 50,000 auths entries, each a registry host with an empty credential, under 1 MiB. */
  static String fiftyThousandEntries(String realKey, String realAuth) {
    StringBuilder json = new StringBuilder("{\"auths\":{");
    for (int i = 0; i < 50_000; i++) {
      json.append("\"r").append(i).append(".example\":{},");
    }
    json.append('"').append(realKey).append("\":{\"auth\":\"").append(realAuth).append("\"}}}");
    return json.toString();
  }

  @Test
  void aSourceOfFiftyThousandEntriesIsReadOncePerChangeAndServesEveryPair() {
    String json =
        fiftyThousandEntries(
            "quay.io/acme", java.util.Base64.getEncoder().encodeToString("acme:s3cret".getBytes()));
    assertTrue(json.length() < 1024 * 1024, json.length() + " bytes: within a Secret's 1 MiB");
    SyncerHarness cluster =
        new SyncerHarness(
            SyncerSettings.defaults("kuik-system").withResyncPeriod(Duration.ofMinutes(10)));
    cluster.source("acme-pull", SyncerHarness.dockerConfigSecret("acme-pull", json));
    cluster.resource(
        alternative(
            "acme", RewritePolicy.ALWAYS, null, repository(0, "quay.io/acme/app", "acme-pull")));
    for (int n = 0; n < 100; n++) {
      cluster.applyNamespace("team-" + n);
    }
    cluster.start().advance(Duration.ofMinutes(1));

    assertEquals(
        Optional.of(RegistryCredential.basic("acme", "s3cret")),
        cluster.stored("team-42", SECRET).map(c -> c.auths().get("quay.io/acme/app")));
    cluster.advance(Duration.ofMinutes(25));
    // The start's pass, then two resyncs whose pairs each came at its own slot: 100 pairs, 300
    // reconciles, and the megabyte read at the start and once after each resync.
    assertTrue(cluster.sourceReads() <= 3, cluster.sourceReads() + " reads of the source Secret");
  }

  @Test
  void aSourceNestedThousandsDeepLeavesItsEntryOutWithAnEventAndStopsNoOtherPair() {
    SyncerHarness cluster = SyncerHarness.withDefaults();
    cluster.source(
        "deep",
        SyncerHarness.dockerConfigSecret(
            "deep", "{\"auths\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}"));
    cluster.source(
        "good",
        new DockerConfig(java.util.Map.of("ghcr.io", RegistryCredential.basic("gh", "t0ken"))));
    cluster.resource(
        alternative(
            "acme",
            RewritePolicy.ALWAYS,
            null,
            repository(0, "quay.io/acme/app", "deep"),
            repository(1, "ghcr.io/acme/app", "good")));
    cluster.applyNamespace("team-a");
    cluster.start().advanceSeconds(2);

    assertEquals(Optional.of(List.of("ghcr.io/acme/app")), cluster.keys("team-a", SECRET));
    List<String> failures =
        cluster.events(ProblemReports.INJECTION_FAILED).stream()
            .map(SyncerHarness.Recorded::message)
            .toList();
    assertEquals(1, failures.size(), failures.toString());
    assertTrue(failures.get(0).contains("nested deeper than 500 levels"), failures.get(0));
  }
}
