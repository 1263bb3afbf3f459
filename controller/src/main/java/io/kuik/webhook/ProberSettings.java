package io.kuik.webhook;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * How the production {@link OciRegistryProber} talks to registries.
 *
 * @param probeTimeout the longest one admission waits for a candidate's answer, token exchange
 *     included; each HTTP request also gives up after it (chart value {@code webhook.probeTimeout},
 *     kept under the webhook's {@code timeoutSeconds})
 * @param cacheTtl how long an answer is reused, so that a 50-replica rollout costs one probe per
 *     image; every outcome is cached, an outage included, so a rollout during one stays fast
 * @param insecureRegistries registries ({@code host[:port]}, as in image references) spoken to over
 *     plain HTTP; {@code localhost}, {@code 127.0.0.1} and {@code [::1]} always are
 * @param maxConcurrentProbes probes in flight at once; a probe beyond it is answered {@code
 *     UNREACHABLE} at once rather than queued behind the admission deadline
 */
public record ProberSettings(
    Duration probeTimeout,
    Duration cacheTtl,
    Set<String> insecureRegistries,
    int maxConcurrentProbes) {

  public static final Duration DEFAULT_PROBE_TIMEOUT = Duration.ofSeconds(2);
  public static final Duration DEFAULT_CACHE_TTL = Duration.ofSeconds(30);
  public static final int DEFAULT_MAX_CONCURRENT_PROBES = 64;

  public ProberSettings {
    Objects.requireNonNull(probeTimeout, "probeTimeout");
    Objects.requireNonNull(cacheTtl, "cacheTtl");
    insecureRegistries = Set.copyOf(insecureRegistries);
    if (probeTimeout.isNegative() || probeTimeout.isZero()) {
      throw new IllegalArgumentException("probeTimeout must be positive, got " + probeTimeout);
    }
    if (cacheTtl.isNegative()) {
      throw new IllegalArgumentException("cacheTtl must not be negative, got " + cacheTtl);
    }
    if (maxConcurrentProbes < 1) {
      throw new IllegalArgumentException("maxConcurrentProbes must be at least 1");
    }
  }

  public static ProberSettings defaults() {
    return new ProberSettings(
        DEFAULT_PROBE_TIMEOUT, DEFAULT_CACHE_TTL, Set.of(), DEFAULT_MAX_CONCURRENT_PROBES);
  }

  public ProberSettings withProbeTimeout(Duration timeout) {
    return new ProberSettings(timeout, cacheTtl, insecureRegistries, maxConcurrentProbes);
  }

  public ProberSettings withCacheTtl(Duration ttl) {
    return new ProberSettings(probeTimeout, ttl, insecureRegistries, maxConcurrentProbes);
  }
}
