package io.kuik.kube.syncer;

import static io.kuik.kube.ClusterFixtures.INSTALL_NAMESPACE;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.kuik.kube.ClusterFixtures;
import io.kuik.kube.Metrics;
import io.kuik.kube.MockCluster;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The health port of a running syncer: liveness, readiness and the metrics a dashboard needs. */
class HealthAndMetricsOnMockApiServerTest {

  private static final Duration PATIENCE = Duration.ofSeconds(20);

  private final MockCluster cluster = new MockCluster();
  private final ClusterFixtures fixtures = new ClusterFixtures(cluster.client());
  private RunningSyncer syncer;

  @AfterEach
  void stop() {
    if (syncer != null) {
      syncer.close();
    }
    cluster.close();
  }

  @Test
  void metricsCountAppliesSentAndSkippedAndTheKnownPairs() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.sourceSecret("alice");
    fixtures.imageAlternative("Always", "{}");
    syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
            "--leader-elect=false",
            "--debounce=50ms",
            "--log-format=text");
    await().atMost(PATIENCE).until(() -> fixtures.injectedUsers("team-a") != null);

    // A label change that changes no Secret: reconciled again, and skipped by the hash.
    fixtures.namespace("team-a", Map.of("unrelated", "label"));
    await("an apply skipped by the hash")
        .atMost(PATIENCE)
        .until(() -> sample("kuik_syncer_applies_skipped_total") > 0);

    String metrics = syncer.get("/metrics").body();
    for (String name :
        List.of(
            "kuik_syncer_pairs",
            "kuik_syncer_queue_depth",
            "kuik_syncer_reconciles_total",
            "kuik_syncer_applies_sent_total",
            "kuik_syncer_applies_skipped_total",
            "kuik_syncer_reconcile_duration_seconds_count",
            "kuik_syncer_leader")) {
      assertTrue(metrics.contains("\n" + name), name + " in\n" + metrics);
    }
    assertEquals(2.0, Metrics.value(metrics, "kuik_syncer_pairs"), "one resource, two namespaces");
    assertEquals(1.0, Metrics.value(metrics, "kuik_syncer_leader"), "no election: it writes");
    // team-a's Secret: the install namespace is one kuik never serves, and gets none.
    assertTrue(Metrics.value(metrics, "kuik_syncer_applies_sent_total") >= 1, metrics);
    // The core's work queue: the start's pass over both pairs, then the label change's event.
    assertEquals(2.0, Metrics.value(metrics, "kuik_syncer_workqueue_adds_total{lane=\"start\"}"));
    assertTrue(Metrics.value(metrics, "kuik_syncer_workqueue_adds_total{lane=\"event\"}") >= 1);
    assertEquals(
        2.0,
        Metrics.value(
            metrics, "kuik_syncer_workqueue_queue_duration_seconds_count{lane=\"start\"}"));
    // Each batch of due pairs is timed, in seconds: a few milliseconds each on the mock.
    double batches = Metrics.value(metrics, "kuik_syncer_reconcile_duration_seconds_count");
    double seconds = Metrics.value(metrics, "kuik_syncer_reconcile_duration_seconds_sum");
    assertTrue(batches >= 1, metrics);
    assertTrue(seconds < batches * 5, seconds + " s for " + batches + " batches");
  }

  @Test
  void everyFailureReasonIsAtZeroFromTheFirstScrapeBesideJvmAndApiClientMetrics() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
            "--leader-elect=false",
            "--log-format=text");
    await("ready").atMost(PATIENCE).until(() -> syncer.get("/readyz").statusCode() == 200);

    String fresh = syncer.get("/metrics").body();

    for (String reason : List.of("Forbidden", "Invalid", "TooManyRequests", "Transport")) {
      assertEquals(
          0.0,
          Metrics.value(fresh, "kuik_syncer_apply_failures_total{reason=\"" + reason + "\"}"),
          reason);
    }
    assertTrue(Metrics.value(fresh, "jvm_memory_used_bytes{area=\"heap\"}") > 0, fresh);
    assertTrue(fresh.contains("\nprocess_cpu_seconds_total "), "process metrics");
    assertTrue(
        Metrics.value(fresh, "kuik_api_requests_total{code=\"200\",verb=\"GET\"}") >= 5,
        "the informers' five lists");
    assertTrue(
        Metrics.value(fresh, "kuik_api_request_duration_seconds_count{verb=\"GET\"}") >= 5,
        "each list timed");
  }

  @Test
  void aRefusedApplyIsCountedByReasonAndNeverReportedAsNotLeaderWithoutElection() {
    List<String> logged = new CopyOnWriteArrayList<>();
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            logged.add(new SimpleFormatter().formatMessage(record));
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.sourceSecret("alice");
    cluster.refuseAppliesIn("team-a");
    syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
            "--leader-elect=false",
            "--debounce=50ms",
            "--log-format=text");
    Logger.getLogger("").addHandler(capture);
    try {
      fixtures.imageAlternative("Always", "{}");
      await("a refused apply counted")
          .atMost(PATIENCE)
          .until(() -> sample("kuik_syncer_apply_failures_total{reason=\"Forbidden\"}") >= 1);
      assertEquals(0, syncer.stop());
    } finally {
      Logger.getLogger("").removeHandler(capture);
    }

    assertTrue(
        logged.stream()
            .anyMatch(
                line ->
                    line.startsWith(
                        "Secret applies failing: ImageAlternative/acme@team-a: 403"
                            + " Forbidden")),
        logged.toString());
    assertTrue(
        logged.stream().noneMatch(line -> line.contains("does not hold the lease")),
        logged.toString());
  }

  @Test
  void healthzAndReadyzAnswerOnceTheInformersSynced() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
            "--leader-elect=false",
            "--log-format=text");

    assertEquals(200, syncer.get("/healthz").statusCode());
    await("ready").atMost(PATIENCE).until(() -> syncer.get("/readyz").statusCode() == 200);
    assertEquals(0, syncer.stop(), "SIGTERM ends it cleanly");
  }

  /** Readiness waits for every informer's first list: a syncer that cannot list is not ready. */
  @Test
  void readyzFailsUntilEveryInformerHasListedWhileHealthzAnswers() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    // Late, but within fabric8's 10 s request timeout: a list that times out ends the start.
    cluster.slowListsOf("imagemirrors", Duration.ofSeconds(8));
    syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
            "--leader-elect=false",
            "--log-format=json");

    assertEquals(200, syncer.get("/healthz").statusCode());
    HttpResponse<String> readyz = syncer.get("/readyz");
    assertEquals(503, readyz.statusCode(), "the mirrors' list is still on its way");
    assertTrue(readyz.body().contains("informers not synced"), readyz.body());
    assertEquals(0, sample("kuik_syncer_informers_synced"), "the gauge says what /readyz says");
    await("ready").atMost(PATIENCE).until(() -> syncer.get("/readyz").statusCode() == 200);
    assertEquals(1, sample("kuik_syncer_informers_synced"));
    assertEquals(1, sample("kuik_syncer_admission_policy_in_place"));
  }

  @Test
  void anInformerThatStoppedFailsHealthAndReadinessSoThatKubernetesRestartsTheProcess() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
            "--leader-elect=false",
            "--log-format=text");
    await("ready").atMost(PATIENCE).until(() -> syncer.get("/readyz").statusCode() == 200);

    // No real API server hands over such a pod; on the mock it stops the typed pods informer, the
    // way fabric8 stops an informer for good.
    cluster
        .client()
        .genericKubernetesResources("v1", "Pod")
        .inNamespace(INSTALL_NAMESPACE)
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion("v1")
                .withKind("Pod")
                .withNewMetadata()
                .withName("unreadable")
                .withNamespace(INSTALL_NAMESPACE)
                .withLabels(Map.of("kuik.enix.io/images-rewritten", "true")) // what it selects
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("containers", "oops"))
                .build())
        .create();

    await("not alive").atMost(PATIENCE).until(() -> syncer.get("/healthz").statusCode() == 503);
    assertEquals(503, syncer.get("/readyz").statusCode());
    assertEquals(
        0, sample("kuik_syncer_informers_synced"), "synced once, then an informer stopped");
  }

  /** With pull secret first, a pod whose Secret is refused waits gated, and the gauge says so. */
  @Test
  void aPodWaitingForItsSecretIsCountedAsGated() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.sourceSecret("alice");
    fixtures.imageAlternative("OnFailure", "{}");
    fixtures.gatedRewrittenPod("team-a", "web-1", java.time.Instant.now());
    cluster.refuseAppliesIn("team-a");
    syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
            "--leader-elect=false",
            "--debounce=50ms",
            "--log-format=text",
            "--release-gates=true");

    await("counted as gated").atMost(PATIENCE).until(() -> sample("kuik_syncer_pods_gated") == 1);
    assertEquals(
        List.of("example.com/quota", "kuik.enix.io/pull-secret"),
        fixtures.gates("team-a", "web-1"),
        "still gated: its Secret was refused");
  }

  private double sample(String name) {
    return Metrics.value(syncer.get("/metrics").body(), name);
  }
}
