package io.kuik.syncer;

import java.time.Duration;

/**
 * What the core measures as it works, for histograms and gauges at the edge: the production
 * executor turns these into Prometheus metrics, a test records them. Like the log, an observer
 * records and never decides: it is no effect, because nothing answers it. Called on the core's
 * thread, in the core's time; an implementation keeps to memory, never blocks and never throws.
 *
 * <p>The core reads no wall clock, so how long a reconcile runs is the executor's to measure
 * between {@link #reconcileStarted} and {@link #reconcileEnded}.
 */
public interface SyncerObserver {

  /** Observes nothing. */
  SyncerObserver NONE = new SyncerObserver() {};

  /** A pair taken from {@code lane} is reconciled from now. */
  default void reconcileStarted(Lane lane) {}

  /** The reconcile started last ended. */
  default void reconcileEnded(Lane lane) {}

  /**
   * A pair waited {@code waited} in {@code lane}, from its due time to the reconcile that decided
   * it. A pair put back for want of a write token is measured once, when it is decided.
   */
  default void waited(Lane lane, Duration waited) {}

  /**
   * A change of a source Secret reached every pair it changed: from the change to the last apply.
   */
  default void propagated(Duration took) {}

  /**
   * A pod's pull-secret gate was removed by this process, {@code waited} after it first saw the pod
   * gated.
   */
  default void gateReleased(Duration waited) {}
}
