package io.kuik.kube.syncer;

import io.kuik.syncer.SyncerSettings;
import java.util.Objects;

/**
 * Everything the production syncer process needs beyond the core's own {@link SyncerSettings}.
 *
 * @param healthPort port of /healthz, /readyz and /metrics; zero picks a free one
 */
public record SyncerRuntimeSettings(SyncerSettings syncer, LeaseSettings lease, int healthPort) {

  public SyncerRuntimeSettings {
    Objects.requireNonNull(syncer, "syncer");
    Objects.requireNonNull(lease, "lease");
    if (healthPort < 0 || healthPort > 65535) {
      throw new IllegalArgumentException("the health port must be 0 to 65535, got " + healthPort);
    }
  }
}
