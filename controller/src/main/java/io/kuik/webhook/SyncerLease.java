package io.kuik.webhook;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Whether the syncer's leader is alive, as its leader-election Lease says: the webhook gates a pod
 * only while it is (docs/decisions/0052-pull-secret-first.md), so that a syncer that is down stops
 * gating new pods within one lease duration. The driver reads the Lease by name from time to time
 * and hands it to {@link #observed}; {@link #fresh} is decided on the admission's thread without a
 * request. Thread-safe.
 */
public final class SyncerLease {

  /**
   * What the Lease said when it was read: its {@code renewTime} and {@code leaseDurationSeconds}.
   */
  public record Observed(Instant renewTime, Duration duration) {
    public Observed {
      Objects.requireNonNull(renewTime, "renewTime");
      Objects.requireNonNull(duration, "duration");
    }

    /** Renewed less than one lease duration before {@code now}. */
    public boolean freshAt(Instant now) {
      return renewTime.plus(duration).isAfter(now);
    }
  }

  private volatile Observed last;

  /** The Lease as just read; null when it is missing or unreadable (nothing is gated then). */
  public void observed(Observed lease) {
    last = lease;
  }

  /** Whether the last Lease read was renewed within its duration before {@code now}. */
  public boolean fresh(Instant now) {
    Observed lease = last;
    return lease != null && lease.freshAt(now);
  }
}
