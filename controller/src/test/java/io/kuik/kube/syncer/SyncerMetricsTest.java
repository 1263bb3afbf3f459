package io.kuik.kube.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.kube.Metrics;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SyncerMetricsTest {

  private final SyncerMetrics metrics = new SyncerMetrics();

  @Test
  void scrapesShowWhatTheCoreLastPublished() throws IOException {
    metrics.publish(
        new SyncerMetrics.CoreSnapshot(
            7,
            5,
            2,
            3,
            4,
            12,
            600,
            java.util.Map.of("NamespaceNotSelected", 9L, "ImageNotCovered", 0L),
            java.util.Map.of("accepted", 4L, "refused", 1L, "unreachable", 0L),
            java.util.Map.of("ecr|minted", 3L, "ecr|timed_out", 1L)));

    String text = scrape();

    assertEquals(7, Metrics.value(text, "kuik_syncer_reconciles_total"));
    assertEquals(5, Metrics.value(text, "kuik_syncer_applies_sent_total"));
    assertEquals(2, Metrics.value(text, "kuik_syncer_applies_skipped_total"));
    assertEquals(3, Metrics.value(text, "kuik_syncer_queue_depth"));
    assertEquals(4, Metrics.value(text, "kuik_syncer_applies_in_flight"));
    assertEquals(12, Metrics.value(text, "kuik_syncer_pairs"));
    assertTrue(
        text.contains(
            "kuik_syncer_rewrites_not_recognized_total{reason=\"NamespaceNotSelected\"} 9.0"),
        text);
    assertTrue(text.contains("kuik_syncer_credential_trials_total{result=\"refused\"} 1.0"), text);
    assertTrue(text.contains("kuik_syncer_credential_trials_total{result=\"accepted\"} 4.0"), text);
  }

  @Test
  void everyResultOfACredentialTrialIsThereFromTheStart() throws IOException {
    String text = scrape();

    for (String result : java.util.List.of("accepted", "refused", "unreachable")) {
      assertTrue(
          text.contains("kuik_syncer_credential_trials_total{result=\"" + result + "\"} 0.0"),
          text);
    }
  }

  @Test
  void everyReasonAPodsClaimIsNotRecognizedForIsThereFromTheStart() throws IOException {
    String text = scrape();

    for (String reason :
        java.util.List.of("NoSuchResource", "NamespaceNotSelected", "ImageNotCovered")) {
      assertTrue(
          text.contains("kuik_syncer_rewrites_not_recognized_total{reason=\"" + reason + "\"} 0.0"),
          text);
    }
  }

  @Test
  void applyFailuresAreCountedByReason() throws IOException {
    metrics.applyFailed("Forbidden");
    metrics.applyFailed("Forbidden");
    metrics.applyFailed("Transport");

    String text = scrape();

    assertTrue(text.contains("kuik_syncer_apply_failures_total{reason=\"Forbidden\"} 2.0"), text);
    assertTrue(text.contains("kuik_syncer_apply_failures_total{reason=\"Transport\"} 1.0"), text);
  }

  @Test
  void reconcileDurationsFallInSecondsBuckets() throws IOException {
    metrics.reconciled(Duration.ofMillis(30));

    String text = scrape();

    assertEquals(1, Metrics.value(text, "kuik_syncer_reconcile_duration_seconds_count"));
    assertTrue(text.contains("kuik_syncer_reconcile_duration_seconds_bucket{le=\"0.05\"} 1"), text);
    assertTrue(
        text.contains("kuik_syncer_reconcile_duration_seconds_bucket{le=\"0.025\"} 0"), text);
  }

  @Test
  void leaderGaugeFollowsTheLease() throws IOException {
    metrics.leading(true);
    assertEquals(1, Metrics.value(scrape(), "kuik_syncer_leader"));
    metrics.leading(false);
    assertEquals(0, Metrics.value(scrape(), "kuik_syncer_leader"));
  }

  @Test
  void everyResultOfAStatusWriteIsThereFromTheStart() throws IOException {
    String text = scrape();

    java.util.List<String> results = new java.util.ArrayList<>(SyncerMetrics.APPLY_FAILURE_REASONS);
    results.add("Applied");
    for (String result : results) {
      assertTrue(
          text.contains("kuik_syncer_status_writes_total{result=\"" + result + "\"} 0.0"),
          result + " in " + text);
    }
  }

  @Test
  void aProviderCredentialsExpiryIsInSecondsAndZeroWithoutOne() throws IOException {
    java.time.Instant now = java.time.Instant.now();
    metrics.providers(java.util.List.of("ecr", "gar"));
    metrics.providerCredentials(
        java.util.Map.of(
            "ecr",
            new io.kuik.model.ProviderCredential(
                "ecr",
                new io.kuik.model.ProviderCredential.Slot(
                    io.kuik.model.ProviderExchange.CacheKeyType.Registry, "ecr.example"),
                "digest",
                java.util.Map.of(),
                now.minus(Duration.ofHours(1)),
                now.plus(Duration.ofHours(1)))));

    String text = scrape();

    double ecr =
        Metrics.value(text, "kuik_syncer_provider_credential_expiry_seconds{provider=\"ecr\"}");
    assertTrue(ecr > 3500 && ecr <= 3600, "an hour left, in seconds: " + ecr);
    assertEquals(
        0, Metrics.value(text, "kuik_syncer_provider_credential_expiry_seconds{provider=\"gar\"}"));
    assertEquals(
        7200,
        Metrics.value(text, "kuik_syncer_provider_credential_validity_seconds{provider=\"ecr\"}"),
        "minted for two hours, in seconds");
    assertEquals(
        0,
        Metrics.value(text, "kuik_syncer_provider_credential_validity_seconds{provider=\"gar\"}"));
  }

  @Test
  void theResyncPeriodIsPublishedInSeconds() throws IOException {
    metrics.publish(
        SyncerMetrics.CoreSnapshot.of(
            new io.kuik.syncer.SyncerCounters(), 0, 0, 0, Duration.ofMinutes(10)));

    assertEquals(600, Metrics.value(scrape(), "kuik_syncer_resync_effective_period_seconds"));
  }

  @Test
  void theInformersGaugeAsksAtEachScrape() throws IOException {
    java.util.concurrent.atomic.AtomicBoolean synced =
        new java.util.concurrent.atomic.AtomicBoolean();
    metrics.informersSynced(synced::get);

    assertEquals(0, Metrics.value(scrape(), "kuik_syncer_informers_synced"));
    synced.set(true);
    assertEquals(1, Metrics.value(scrape(), "kuik_syncer_informers_synced"));
  }

  @Test
  void gatedPodsAndTheirWaitsAreExported() throws IOException {
    metrics.podsGated(3);
    metrics.observer().gateReleased(Duration.ofMillis(1500));

    String text = scrape();
    assertEquals(3, Metrics.value(text, "kuik_syncer_pods_gated"));
    assertEquals(1.5, Metrics.value(text, "kuik_syncer_gate_wait_seconds_sum"), "in seconds");
  }

  @Test
  void theReconcileRunningNowIsTimedUntilItEnds() throws Exception {
    io.kuik.syncer.SyncerObserver observer = metrics.observer();
    observer.reconcileStarted(io.kuik.syncer.Lane.EVENT);
    Thread.sleep(20);

    String running =
        "kuik_syncer_workqueue_longest_running_seconds{lane=\""
            + io.kuik.syncer.Lane.EVENT.label()
            + "\"}";
    assertTrue(Metrics.value(scrape(), running) >= 0.02, scrape());
    observer.reconcileEnded(io.kuik.syncer.Lane.EVENT);
    assertEquals(0, Metrics.value(scrape(), running));
  }

  private String scrape() {
    return Metrics.text(metrics.registry());
  }
}
