package io.kuik.kube.webhook;

import io.kuik.ports.RegistryProber;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A {@link RegistryProber} that measures the one it wraps without changing an answer: each outcome
 * an admission receives (cached ones included, a probe still running at the deadline as the {@code
 * UNREACHABLE} the admission saw) and how long the admission waited for all its probes.
 */
final class WebhookProbeMeter implements RegistryProber {

  private final RegistryProber prober;
  private final WebhookMetrics metrics;
  private final LongSupplier nanoTime;

  WebhookProbeMeter(RegistryProber prober, WebhookMetrics metrics, LongSupplier nanoTime) {
    this.prober = Objects.requireNonNull(prober, "prober");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
  }

  @Override
  public List<Availability> probe(List<Probe> candidates) {
    return probeAll(List.of(candidates)).get(0);
  }

  @Override
  public List<List<Availability>> probeAll(List<List<Probe>> candidateLists) {
    long start = nanoTime.getAsLong();
    List<List<Availability>> answers = prober.probeAll(candidateLists);
    metrics.probesTook(Duration.ofNanos(nanoTime.getAsLong() - start));
    if (answers != null) {
      answers.stream()
          .filter(Objects::nonNull)
          .flatMap(List::stream)
          .filter(Objects::nonNull)
          .forEach(metrics::probed);
    }
    return answers;
  }
}
