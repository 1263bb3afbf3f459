package io.kuik.kube;

import io.kuik.syncer.SyncerSettings;
import java.time.Duration;
import java.util.Objects;

/**
 * Everything the production syncer process needs beyond the core's own {@link SyncerSettings}.
 *
 * @param resyncPeriod how often every pair is applied again (restores deleted Secrets); zero: never
 * @param healthPort port of /healthz, /readyz and /metrics; zero picks a free one
 */
public record SyncerRuntimeSettings(
    SyncerSettings syncer,
    Duration resyncPeriod,
    ApiRate apiRate,
    LeaseSettings lease,
    int healthPort) {

  public SyncerRuntimeSettings {
    Objects.requireNonNull(syncer, "syncer");
    Objects.requireNonNull(resyncPeriod, "resyncPeriod");
    Objects.requireNonNull(apiRate, "apiRate");
    Objects.requireNonNull(lease, "lease");
    if (resyncPeriod.isNegative()) {
      throw new IllegalArgumentException("the resync period must not be negative");
    }
    if (healthPort < 0 || healthPort > 65535) {
      throw new IllegalArgumentException("the health port must be 0 to 65535, got " + healthPort);
    }
  }
}
