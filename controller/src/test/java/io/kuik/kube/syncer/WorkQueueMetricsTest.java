package io.kuik.kube.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.kube.Metrics;
import io.kuik.syncer.Lane;
import io.kuik.syncer.LaneStats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WorkQueueMetricsTest {

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final WorkQueueMetrics metrics = new WorkQueueMetrics(registry, nanos::get);

  private String scrape() {
    return Metrics.text(registry);
  }

  private static double sample(String text, String name, String lane) {
    return Metrics.value(text, name + "{lane=\"" + lane + "\"}");
  }

  @Test
  void everyLaneHasEverySeriesAtZeroFromTheFirstScrape() throws IOException {
    String text = scrape();
    for (String lane : new String[] {"event", "start", "resync"}) {
      assertEquals(0, sample(text, "kuik_syncer_workqueue_depth", lane));
      assertEquals(0, sample(text, "kuik_syncer_workqueue_adds_total", lane));
      assertEquals(0, sample(text, "kuik_syncer_workqueue_retries_total", lane));
      assertEquals(0, sample(text, "kuik_syncer_workqueue_longest_waiting_seconds", lane));
      assertEquals(0, sample(text, "kuik_syncer_workqueue_longest_running_seconds", lane));
      assertEquals(0, sample(text, "kuik_syncer_workqueue_queue_duration_seconds_count", lane));
    }
    assertEquals(0, Metrics.value(text, "kuik_syncer_source_propagation_seconds_count"));
  }

  @Test
  void theLaneFiguresAreWhatTheCoreLastPublished() throws IOException {
    metrics.publish(
        Map.of(
            Lane.RESYNC, new LaneStats(4, 10, 25, 2, Duration.ofMillis(1500)),
            Lane.EVENT, new LaneStats(1, 0, 3, 0, Duration.ZERO)));
    String text = scrape();
    assertEquals(4, sample(text, "kuik_syncer_workqueue_depth", "resync"));
    assertEquals(25, sample(text, "kuik_syncer_workqueue_adds_total", "resync"));
    assertEquals(2, sample(text, "kuik_syncer_workqueue_retries_total", "resync"));
    assertEquals(1.5, sample(text, "kuik_syncer_workqueue_longest_waiting_seconds", "resync"));
    assertEquals(1, sample(text, "kuik_syncer_workqueue_depth", "event"));
    assertEquals(0, sample(text, "kuik_syncer_workqueue_depth", "start"), "a lane left out is 0");
  }

  @Test
  void theRunningReconcileIsTimedOnTheMonotonicClockUntilItEnds() throws IOException {
    metrics.reconcileStarted(Lane.START);
    nanos.addAndGet(2_500_000_000L);
    String text = scrape();
    assertEquals(2.5, sample(text, "kuik_syncer_workqueue_longest_running_seconds", "start"));
    assertEquals(0, sample(text, "kuik_syncer_workqueue_longest_running_seconds", "event"));
    metrics.reconcileEnded(Lane.START);
    assertEquals(0, sample(scrape(), "kuik_syncer_workqueue_longest_running_seconds", "start"));
  }

  @Test
  void queueWaitsAndPropagationsFallInSecondsBuckets() throws IOException {
    metrics.waited(Lane.EVENT, Duration.ofMillis(300));
    metrics.waited(Lane.EVENT, Duration.ofSeconds(20));
    metrics.propagated(Duration.ofSeconds(3));
    String text = scrape();
    assertEquals(2, sample(text, "kuik_syncer_workqueue_queue_duration_seconds_count", "event"));
    assertTrue(
        text.contains(
            "kuik_syncer_workqueue_queue_duration_seconds_bucket{lane=\"event\",le=\"0.5\"} 1"),
        text);
    assertTrue(
        text.contains(
            "kuik_syncer_workqueue_queue_duration_seconds_bucket{lane=\"event\",le=\"30.0\"} 2"),
        text);
    assertEquals(1, Metrics.value(text, "kuik_syncer_source_propagation_seconds_count"));
    assertTrue(text.contains("kuik_syncer_source_propagation_seconds_bucket{le=\"2.0\"} 0"), text);
    assertTrue(text.contains("kuik_syncer_source_propagation_seconds_bucket{le=\"5.0\"} 1"), text);
  }

  @Test
  void theSyncerMetricsPublishTheLanesAndObserveTheCore() throws IOException {
    SyncerMetrics syncer = new SyncerMetrics();
    syncer.publishLanes(Map.of(Lane.START, new LaneStats(7, 0, 7, 0, Duration.ZERO)));
    syncer.observer().propagated(Duration.ofSeconds(1));
    String text = Metrics.text(syncer.registry());
    assertEquals(7, sample(text, "kuik_syncer_workqueue_depth", "start"));
    assertEquals(1, Metrics.value(text, "kuik_syncer_source_propagation_seconds_count"));
  }
}
