package io.kuik.kube.webhook;

import io.kuik.ports.RegistryProber.Availability;
import io.kuik.routing.Band;
import io.kuik.routing.ContainerDecision;
import io.kuik.routing.RoutingDecision;
import io.kuik.webhook.OciRegistryProber;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The webhook's Prometheus metrics, served on {@code /metrics} of the health port: what admissions
 * came to, which band each rewrite came from, what probes answered and how long an admission waited
 * for them, and the prober's own counters. Thread-safe: admissions report from their own threads.
 */
final class WebhookMetrics {

  /** What an admission of a pod creation came to, the {@code result} label. */
  enum Result {
    /** At least one image rewritten. */
    REWRITTEN,
    /** Routed, every image kept: not covered, the original won, or nothing answered. */
    UNCHANGED,
    /** Left alone whole, e.g. already routed once. */
    SKIPPED,
    /** The namespace is not in the informer yet: left alone, selectors cannot be evaluated. */
    NAMESPACE_UNKNOWN;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Counter admissions;
  private final Counter rewrites;
  private final Counter probes;
  private final Histogram probeDuration;
  private final Counter requests;
  private final Histogram admissionDuration;

  WebhookMetrics() {
    admissions =
        Counter.builder()
            .name("kuik_webhook_admissions")
            .help(
                "Pod creations reviewed, by result: rewritten, unchanged, skipped,"
                    + " namespace_unknown")
            .labelNames("result")
            .register(registry);
    rewrites =
        Counter.builder()
            .name("kuik_webhook_rewrites")
            .help(
                "Container images rewritten, by the band of the winning candidate:"
                    + " always_mirror, always_alternative, on_failure_alternative, on_failure_mirror")
            .labelNames("reason")
            .register(registry);
    probes =
        Counter.builder()
            .name("kuik_webhook_probes")
            .help("Candidate images probed for admissions (cached answers included), by outcome")
            .labelNames("outcome")
            .register(registry);
    probeDuration =
        Histogram.builder()
            .name("kuik_webhook_probe_duration_seconds")
            .help("Time one admission waited for the probes of all its containers")
            .classicOnly()
            .classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10)
            .register(registry);
    requests =
        Counter.builder()
            .name("kuik_webhook_requests")
            .help(
                "Requests to /mutate-pods, by result (answered, too_large, wrong_method,"
                    + " not_found, over_its_share, failed) and HTTP code")
            .labelNames("result", "code")
            .register(registry);
    admissionDuration =
        Histogram.builder()
            .name("kuik_webhook_admission_duration_seconds")
            .help("Time to answer one request to /mutate-pods, probes included")
            .classicOnly()
            .classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10)
            .register(registry);
    // Every series exists from the first scrape, so that rate() and absent-series alerts work.
    for (Result result : Result.values()) {
      admissions.initLabelValues(result.label());
    }
    for (Band band : Band.values()) {
      rewrites.initLabelValues(band.name().toLowerCase(Locale.ROOT));
    }
    for (Availability outcome : Availability.values()) {
      probes.initLabelValues(outcome.name().toLowerCase(Locale.ROOT));
    }
    requests.initLabelValues("answered", "200");
    JvmMetrics.builder().register(registry);
  }

  /** One request to /mutate-pods answered (see {@link io.kuik.webhook.WebhookServer.Observer}). */
  void served(String result, int code, long nanos) {
    requests.labelValues(result, Integer.toString(code)).inc();
    admissionDuration.observe(nanos / 1e9);
  }

  PrometheusRegistry registry() {
    return registry;
  }

  /** The routing resources the index holds, and those left out for their problems. */
  void routingResources(LongSupplier valid, LongSupplier invalid) {
    GaugeWithCallback.builder()
        .name("kuik_webhook_routing_resources")
        .help("Routing resources known to the webhook, by validity; invalid ones route nothing")
        .labelNames("validity")
        .callback(
            callback -> {
              callback.call(valid.getAsLong(), "valid");
              callback.call(invalid.getAsLong(), "invalid");
            })
        .register(registry);
  }

  /** 1 while every informer has synced and none stopped (draining aside). */
  void informersSynced(java.util.function.BooleanSupplier synced) {
    GaugeWithCallback.builder()
        .name("kuik_webhook_informers_synced")
        .help("1 while every informer has listed and none stopped, else 0")
        .callback(callback -> callback.call(synced.getAsBoolean() ? 1 : 0))
        .register(registry);
  }

  /** Pull secret first: the pods the bound watches, and those it released. */
  void gates(LongSupplier gated, LongSupplier releasedByTheBound) {
    GaugeWithCallback.builder()
        .name("kuik_webhook_pods_gated")
        .help("Rewritten pods that carry the kuik.enix.io/pull-secret scheduling gate")
        .callback(callback -> callback.call(gated.getAsLong()))
        .register(registry);
    callbackCounter(
        "kuik_webhook_gates_released_by_bound",
        "Pods whose pull-secret gate the webhook removed at pullSecretFirst.maxWait, with a"
            + " Warning Event PullSecretNotReady: their Secret was not in place in time",
        releasedByTheBound);
  }

  /** The production prober's own counters, read at each scrape. */
  void prober(OciRegistryProber prober) {
    callbackCounter(
        "kuik_webhook_registry_requests",
        "HTTP requests sent to registries and token services",
        prober::requests);
    callbackCounter(
        "kuik_webhook_probe_cache_hits",
        "Probes answered from the prober's cache without a request",
        prober::cacheHits);
    callbackCounter(
        "kuik_webhook_probes_collapsed",
        "Probes that joined a probe of the same image and credential still in flight",
        prober::collapsed);
  }

  void admitted(Result result) {
    admissions.labelValues(result.label()).inc();
  }

  /** One routed pod creation: its result, and one rewrite per container that changes image. */
  void decided(RoutingDecision decision) {
    if (decision.skipped() != null) {
      admitted(Result.SKIPPED);
      return;
    }
    admitted(decision.changesPod() ? Result.REWRITTEN : Result.UNCHANGED);
    for (ContainerDecision container : decision.rewrites()) {
      rewrites.labelValues(container.chosen().band().name().toLowerCase(Locale.ROOT)).inc();
    }
  }

  void probed(Availability outcome) {
    probes.labelValues(outcome.name().toLowerCase(Locale.ROOT)).inc();
  }

  void probesTook(Duration took) {
    probeDuration.observe(took.toNanos() / 1e9);
  }

  private void callbackCounter(String name, String help, LongSupplier value) {
    CounterWithCallback.builder()
        .name(name)
        .help(help)
        .callback(callback -> callback.call(value.getAsLong()))
        .register(registry);
  }
}
