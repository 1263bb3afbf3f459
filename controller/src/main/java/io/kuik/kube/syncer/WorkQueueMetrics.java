package io.kuik.kube.syncer;

import io.kuik.syncer.Lane;
import io.kuik.syncer.LaneStats;
import io.kuik.syncer.SyncerObserver;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.ToDoubleFunction;

/**
 * The syncer core's work queue per lane, named as controller-runtime names a workqueue's metrics,
 * and how long a source Secret's change takes to reach its last pair. Every series exists, at 0,
 * from the first scrape.
 *
 * <p>The lane figures are the core's plain data, published by the core's thread after each task
 * ({@link #publish}); the durations come through {@link SyncerObserver}, on the core's thread. How
 * long the running reconcile has run is measured here, with the JVM's monotonic clock: the core
 * reads none.
 */
final class WorkQueueMetrics implements SyncerObserver {

  private record Running(Lane lane, long sinceNanos) {}

  private final LongSupplier nanoTime;
  private final Histogram queueDuration;
  private final Histogram propagation;
  private volatile Map<Lane, LaneStats> lanes = idle();
  private volatile Running running;

  WorkQueueMetrics(PrometheusRegistry registry, LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
    gauge(registry, "depth", "Pairs due and not reconciled yet, by lane", LaneStats::depth);
    counter(
        registry,
        "adds",
        "Pairs that entered the lane (not those already waiting there)",
        s -> s.adds());
    counter(
        registry,
        "retries",
        "Refused applies of pairs taken from the lane, queued again",
        s -> s.retries());
    gauge(
        registry,
        "longest_waiting_seconds",
        "How long the pair due longest ago has waited in the lane",
        s -> seconds(s.longestWaiting()));
    GaugeWithCallback.builder()
        .name("kuik_syncer_workqueue_longest_running_seconds")
        .help("How long the reconcile running now, taken from the lane, has run")
        .labelNames("lane")
        .callback(
            callback -> {
              Running now = running;
              for (Lane lane : Lane.values()) {
                double value =
                    now != null && now.lane() == lane
                        ? (nanoTime.getAsLong() - now.sinceNanos()) / 1e9
                        : 0;
                callback.call(value, lane.label());
              }
            })
        .register(registry);
    queueDuration =
        Histogram.builder()
            .name("kuik_syncer_workqueue_queue_duration_seconds")
            .help("How long a pair waited in the lane after it fell due, until it was reconciled")
            .labelNames("lane")
            .classicOnly()
            .classicUpperBounds(0.001, 0.01, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600)
            .register(registry);
    for (Lane lane : Lane.values()) {
      queueDuration.initLabelValues(lane.label());
    }
    propagation =
        Histogram.builder()
            .name("kuik_syncer_source_propagation_seconds")
            .help(
                "From a change of a source Secret to the last pair it changed applied: how long a"
                    + " rotated credential takes to reach every namespace")
            .classicOnly()
            .classicUpperBounds(0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600)
            .register(registry);
  }

  /** What the core's thread read from the core after a task. */
  void publish(Map<Lane, LaneStats> latest) {
    Map<Lane, LaneStats> copy = idle();
    copy.putAll(latest);
    lanes = copy;
  }

  @Override
  public void reconcileStarted(Lane lane) {
    running = new Running(lane, nanoTime.getAsLong());
  }

  @Override
  public void reconcileEnded(Lane lane) {
    running = null;
  }

  @Override
  public void waited(Lane lane, Duration waited) {
    queueDuration.labelValues(lane.label()).observe(seconds(waited));
  }

  @Override
  public void propagated(Duration took) {
    propagation.observe(seconds(took));
  }

  private void gauge(
      PrometheusRegistry registry, String name, String help, ToDoubleFunction<LaneStats> value) {
    GaugeWithCallback.builder()
        .name("kuik_syncer_workqueue_" + name)
        .help(help)
        .labelNames("lane")
        .callback(
            callback -> {
              Map<Lane, LaneStats> now = lanes;
              for (Lane lane : Lane.values()) {
                callback.call(value.applyAsDouble(now.get(lane)), lane.label());
              }
            })
        .register(registry);
  }

  private void counter(
      PrometheusRegistry registry, String name, String help, ToDoubleFunction<LaneStats> value) {
    CounterWithCallback.builder()
        .name("kuik_syncer_workqueue_" + name)
        .help(help)
        .labelNames("lane")
        .callback(
            callback -> {
              Map<Lane, LaneStats> now = lanes;
              for (Lane lane : Lane.values()) {
                callback.call(value.applyAsDouble(now.get(lane)), lane.label());
              }
            })
        .register(registry);
  }

  private static Map<Lane, LaneStats> idle() {
    Map<Lane, LaneStats> idle = new EnumMap<>(Lane.class);
    for (Lane lane : Lane.values()) {
      idle.put(lane, new LaneStats(0, 0, 0, 0, Duration.ZERO));
    }
    return idle;
  }

  private static double seconds(Duration duration) {
    return duration.toNanos() / 1e9;
  }
}
