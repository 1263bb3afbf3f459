package io.kuik.kube.syncer;

import static io.kuik.kube.ClusterFixtures.INSTALL_NAMESPACE;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.kube.ClusterFixtures;
import io.kuik.kube.ForkedKuik;
import io.kuik.kube.Metrics;
import io.kuik.kube.MockCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A real {@code kuik syncer} process (its own JVM, as the image runs it) against the mock API
 * server, scraped as Prometheus would: once fresh, once after the API server refused an apply. The
 * {@code kuik_} lines of both scrapes are kept in {@code controller/target/metrics-scrape/} (the
 * README's Metrics section shows what they mean).
 */
class MetricsOfAForkedSyncerTest {

  private static final Path OUT =
      Path.of(System.getProperty("basedir", ".")).resolve("target/metrics-scrape");

  private final MockCluster cluster = MockCluster.underSyncerRbac();
  private final ClusterFixtures fixtures = new ClusterFixtures(cluster.client());
  private ForkedKuik syncer;

  @AfterEach
  void stop() {
    if (syncer != null) {
      syncer.close();
    }
    cluster.close();
  }

  private static String kuikLines(String scrape) {
    return scrape
            .lines()
            .filter(l -> l.startsWith("kuik_") || l.startsWith("# HELP kuik_"))
            .collect(Collectors.joining("\n"))
        + "\n";
  }

  @Test
  void aFreshSyncerShowsEveryCounterAtZeroAndARefusedApplyCountsAsForbidden() throws Exception {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.sourceSecret("alice");
    cluster.refuseAppliesIn("team-a");
    syncer =
        ForkedKuik.start(
                cluster.kubeconfig(),
                "syncer",
                "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
                "--leader-elect=false",
                "--debounce=50ms")
            .awaitReady();

    String fresh = syncer.body("/metrics");
    fixtures.imageAlternative("Always", "{}");
    String refused =
        await("a refused apply counted")
            .atMost(Duration.ofSeconds(30))
            .until(
                () -> syncer.body("/metrics"),
                // The writer counts a failure at once; the core's counters are published after
                // the reconcile that sent it.
                m ->
                    Metrics.value(m, "kuik_syncer_apply_failures_total{reason=\"Forbidden\"}") >= 1
                        && Metrics.value(m, "kuik_syncer_applies_sent_total") >= 1);
    write("fresh.txt", fresh);
    write("after-refusal.txt", refused);

    assertEquals(0, Metrics.value(fresh, "kuik_syncer_apply_failures_total{reason=\"Forbidden\"}"));
    assertEquals(0, Metrics.value(fresh, "kuik_syncer_status_writes_total{result=\"Applied\"}"));
    assertEquals(1, Metrics.value(fresh, "kuik_syncer_informers_synced"));
    assertTrue(Metrics.value(refused, "kuik_syncer_applies_sent_total") >= 1);
    assertEquals(0, syncer.terminate(), syncer.stderr());
  }

  private static void write(String name, String scrape) throws IOException {
    Files.createDirectories(OUT);
    Files.writeString(OUT.resolve(name), kuikLines(scrape));
  }
}
