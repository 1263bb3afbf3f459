package io.kuik.sim.explore;

import io.kuik.sim.dsl.KuikWorld;
import io.kuik.syncer.SyncerSettings;
import java.time.Duration;

/**
 * The explorer's numbers in one place: the longest fault windows it opens, and what the checkers
 * derive from them. The slack is how late the syncer may honestly learn of a change under these
 * faults: a resync period (a Secret deleted by a person), the retry cap (a write refused during an
 * outage), the three fault windows back to back (a drop, a delay and an outage may overlap), and a
 * margin for the informers' relist backoff and the debounce.
 */
public final class Bounds {

  public static final Duration MAX_FAULT_WINDOW = Duration.ofMinutes(3);

  public static final Duration MARGIN = Duration.ofMinutes(2);

  /** The documented grace the safety checker allows, whatever the syncer was given. */
  public static final Duration DOCUMENTED_GRACE = SyncerSettings.DEFAULT_GRACE;

  public static final Duration SLACK =
      KuikWorld.RESYNC_PERIOD
          .plus(SyncerSettings.DEFAULT_RETRY_CAP)
          .plus(MAX_FAULT_WINDOW.multipliedBy(3))
          .plus(MARGIN);

  /**
   * The final phase after every fault healed: debounce + the retry cap + one resync period + the
   * longest outage still running + a margin.
   */
  public static final Duration LIVENESS_PHASE =
      SyncerSettings.DEFAULT_DEBOUNCE
          .plus(SyncerSettings.DEFAULT_RETRY_CAP)
          .plus(KuikWorld.RESYNC_PERIOD)
          .plus(MAX_FAULT_WINDOW)
          .plus(MARGIN);

  private Bounds() {}
}
