package io.kuik.kube.syncer;

import io.kuik.syncer.Lane;
import io.kuik.syncer.LaneStats;
import io.kuik.syncer.SyncerCounters;
import io.kuik.syncer.SyncerObserver;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The syncer's Prometheus metrics, served on {@code /metrics} of the health port. The core's
 * counters live on the core's thread; that thread publishes a {@link CoreSnapshot} after each task
 * and a scrape reads the last one, so no scrape ever touches the core.
 */
public final class SyncerMetrics {

  /** What the core's thread last published. */
  record CoreSnapshot(
      long reconciles,
      long appliesSent,
      long appliesSkipped,
      int queueDepth,
      int appliesInFlight,
      long pairs,
      double resyncPeriodSeconds,
      Map<String, Long> rewritesNotRecognized,
      Map<String, Long> credentialTrials,
      Map<String, Long> mints) {
    static final CoreSnapshot NONE =
        new CoreSnapshot(
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            new SyncerCounters().rewritesNotRecognized(),
            new SyncerCounters().credentialTrials(),
            Map.of());

    static CoreSnapshot of(
        SyncerCounters counters,
        int queueDepth,
        int appliesInFlight,
        long pairs,
        Duration resyncPeriod) {
      return new CoreSnapshot(
          counters.reconciles(),
          counters.appliesSent(),
          counters.appliesSkipped(),
          queueDepth,
          appliesInFlight,
          pairs,
          resyncPeriod.toMillis() / 1000.0,
          counters.rewritesNotRecognized(),
          counters.credentialTrials(),
          Map.copyOf(counters.mints()));
    }
  }

  /**
   * The reasons an apply fails with, present at zero from the start: the API server's usual Status
   * reasons, and the writer's own (Transport: no answer; NotLeader, ShuttingDown: not sent).
   */
  static final List<String> APPLY_FAILURE_REASONS =
      List.of(
          "Forbidden",
          "Invalid",
          "Conflict",
          "NotFound",
          "TooManyRequests",
          "ServiceUnavailable",
          "InternalError",
          "Timeout",
          "Unknown",
          "Transport",
          "ClientError",
          "NotLeader",
          "ShuttingDown",
          "NoAdmissionPolicy");

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final WorkQueueMetrics workQueue = new WorkQueueMetrics(registry, System::nanoTime);
  private final Counter applyFailures;
  private final Counter statusWrites;
  private final Histogram reconcileDuration;
  private final Gauge leader;
  private final Gauge admissionPolicy;
  private final Gauge podsGated;
  private final Histogram gateWait;
  private volatile CoreSnapshot snapshot = CoreSnapshot.NONE;
  private volatile java.util.Set<String> providerNames = java.util.Set.of();
  private volatile Map<String, io.kuik.model.ProviderCredential> serving = Map.of();

  public SyncerMetrics() {
    counter("kuik_syncer_reconciles", "Pairs reconciled", CoreSnapshot::reconciles);
    counter(
        "kuik_syncer_applies_sent",
        "Server-side applies of a Secret sent, successful or not",
        CoreSnapshot::appliesSent);
    counter(
        "kuik_syncer_applies_skipped",
        "Applies not sent because the pair's content hash had not changed",
        CoreSnapshot::appliesSkipped);
    CounterWithCallback.builder()
        .name("kuik_syncer_rewrites_not_recognized")
        .help(
            "Pods whose claim of a rewrite (label and rewritten-by annotation) kuik does not"
                + " recognize, each counted once, by reason: NoSuchResource, NamespaceNotSelected,"
                + " ImageNotCovered")
        .labelNames("reason")
        .callback(
            callback ->
                snapshot.rewritesNotRecognized().forEach((reason, n) -> callback.call(n, reason)))
        .register(registry);
    CounterWithCallback.builder()
        .name("kuik_syncer_credential_trials")
        .help(
            "Credentials of injecting entries tried on their registries ahead of any pod (the"
                + " token flow of a pull), by result: accepted, refused (alert on it: pods would"
                + " fail with ImagePullBackOff), unreachable")
        .labelNames("result")
        .callback(
            callback ->
                snapshot.credentialTrials().forEach((result, n) -> callback.call(n, result)))
        .register(registry);
    CounterWithCallback.builder()
        .name("kuik_syncer_provider_mints")
        .help(
            "Runs of a credential provider plugin, by provider and result: minted, or not_found,"
                + " timed_out, exited, too_large, invalid, unusable, not_run")
        .labelNames("provider", "result")
        .callback(
            callback ->
                snapshot
                    .mints()
                    .forEach(
                        (key, n) -> {
                          String[] parts = key.split("\\|", 2);
                          callback.call(n, parts[0], parts[1]);
                        }))
        .register(registry);
    GaugeWithCallback.builder()
        .name("kuik_syncer_provider_credential_expiry_seconds")
        .help(
            "Seconds until the provider's soonest-expiring credential written in kuik-inject-*"
                + " Secrets expires; 0 when none is written. It falls to half the validity, then a"
                + " new one is minted; below that, the plugin fails")
        .labelNames("provider")
        .callback(
            callback -> {
              java.time.Instant now = java.time.Instant.now();
              for (String provider : providerNames) {
                io.kuik.model.ProviderCredential c = serving.get(provider);
                double left =
                    c == null ? 0 : Math.max(0, Duration.between(now, c.expiresAt()).toMillis());
                callback.call(left / 1000.0, provider);
              }
            })
        .register(registry);
    GaugeWithCallback.builder()
        .name("kuik_syncer_provider_credential_validity_seconds")
        .help(
            "How long the provider's soonest-expiring credential in use was minted for (its"
                + " cacheDuration); 0 when none is written")
        .labelNames("provider")
        .callback(
            callback -> {
              for (String provider : providerNames) {
                io.kuik.model.ProviderCredential c = serving.get(provider);
                callback.call(c == null ? 0 : c.validity().toMillis() / 1000.0, provider);
              }
            })
        .register(registry);
    GaugeWithCallback.builder()
        .name("kuik_syncer_pairs")
        .help("Pairs (routing resource, namespace) that a resync reconciles")
        .callback(callback -> callback.call(snapshot.pairs()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("kuik_syncer_resync_effective_period_seconds")
        .help(
            "How often each pair is resynced now: --resync-period, or longer when"
                + " --resync-share of --api-qps cannot apply every pair within it")
        .callback(callback -> callback.call(snapshot.resyncPeriodSeconds()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("kuik_syncer_queue_depth")
        .help("Pairs waiting for a reconcile: debounced, retried, or waiting for a grace to end")
        .callback(callback -> callback.call(snapshot.queueDepth()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("kuik_syncer_applies_in_flight")
        .help("Applies sent and not yet answered, at most --max-applies-in-flight")
        .callback(callback -> callback.call(snapshot.appliesInFlight()))
        .register(registry);
    applyFailures =
        Counter.builder()
            .name("kuik_syncer_apply_failures")
            .help("Applies refused or failed, by the API server's reason (Transport: no answer)")
            .labelNames("reason")
            .register(registry);
    reconcileDuration =
        Histogram.builder()
            .name("kuik_syncer_reconcile_duration_seconds")
            .help("Time to process one batch of due pairs (applies are sent, not waited for)")
            .classicOnly()
            .classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
            .register(registry);
    leader =
        Gauge.builder()
            .name("kuik_syncer_leader")
            .help("1 while this instance holds the lease and writes, 0 on a standby")
            .register(registry);
    admissionPolicy =
        Gauge.builder()
            .name("kuik_syncer_admission_policy_in_place")
            .help(
                "1 while the admission policy that bounds the syncer's writes and its binding are"
                    + " in place; 0 while they are missing, and nothing is written")
            .register(registry);
    podsGated =
        Gauge.builder()
            .name("kuik_syncer_pods_gated")
            .help(
                "Rewritten pods that wait on the kuik.enix.io/pull-secret scheduling gate, as the"
                    + " leader knows them (pullSecretFirst)")
            .register(registry);
    gateWait =
        Histogram.builder()
            .name("kuik_syncer_gate_wait_seconds")
            .help(
                "How long a gated pod waited, from when the syncer first saw it to the removal of"
                    + " its gate by the syncer (pullSecretFirst)")
            .classicOnly()
            .classicUpperBounds(0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120)
            .register(registry);
    // Every reason series exists from the first scrape, so that rate() alerts have a series.
    statusWrites =
        Counter.builder()
            .name("kuik_syncer_status_writes")
            .help(
                "Status writes of routing resources, by result: Applied, or the API server's"
                    + " reason as for apply failures")
            .labelNames("result")
            .register(registry);
    for (String reason : APPLY_FAILURE_REASONS) {
      applyFailures.initLabelValues(reason);
      statusWrites.initLabelValues(reason);
    }
    statusWrites.initLabelValues("Applied");
    JvmMetrics.builder().register(registry);
  }

  public PrometheusRegistry registry() {
    return registry;
  }

  void publish(CoreSnapshot latest) {
    snapshot = latest;
  }

  /** The core's work queue, per lane, as its thread last read it. */
  void publishLanes(Map<Lane, LaneStats> lanes) {
    workQueue.publish(lanes);
  }

  /** What the core reports as it works: queue waits, source propagation, gate waits. */
  SyncerObserver observer() {
    return new SyncerObserver() {
      @Override
      public void reconcileStarted(Lane lane) {
        workQueue.reconcileStarted(lane);
      }

      @Override
      public void reconcileEnded(Lane lane) {
        workQueue.reconcileEnded(lane);
      }

      @Override
      public void waited(Lane lane, Duration waited) {
        workQueue.waited(lane, waited);
      }

      @Override
      public void propagated(Duration took) {
        workQueue.propagated(took);
      }

      @Override
      public void gateReleased(Duration waited) {
        gateWait.observe(waited.toNanos() / 1e9);
      }
    };
  }

  /** The providers configured: each has its series from the first scrape. */
  void providers(java.util.Collection<String> names) {
    providerNames = java.util.Set.copyOf(names);
  }

  /** Each provider's soonest-expiring credential in use, published by the core's thread. */
  void providerCredentials(Map<String, io.kuik.model.ProviderCredential> credentials) {
    serving = Map.copyOf(credentials);
  }

  void podsGated(int pods) {
    podsGated.set(pods);
  }

  void applyFailed(String reason) {
    applyFailures.labelValues(reason).inc();
  }

  void statusWritten(String result) {
    statusWrites.labelValues(result).inc();
  }

  void reconciled(Duration took) {
    reconcileDuration.observe(took.toNanos() / 1e9);
  }

  /** 1 while every informer has synced and none stopped: what /readyz answers. */
  void informersSynced(java.util.function.BooleanSupplier synced) {
    GaugeWithCallback.builder()
        .name("kuik_syncer_informers_synced")
        .help("1 while every informer has listed and none stopped (what /readyz answers), else 0")
        .callback(callback -> callback.call(synced.getAsBoolean() ? 1 : 0))
        .register(registry);
  }

  void leading(boolean leading) {
    leader.set(leading ? 1 : 0);
  }

  void admissionPolicyInPlace(boolean inPlace) {
    admissionPolicy.set(inPlace ? 1 : 0);
  }

  private void counter(String name, String help, ToLongFunction<CoreSnapshot> value) {
    CounterWithCallback.builder()
        .name(name)
        .help(help)
        .callback(callback -> callback.call(value.applyAsLong(snapshot)))
        .register(registry);
  }
}
