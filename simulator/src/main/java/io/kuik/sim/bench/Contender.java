package io.kuik.sim.bench;

import io.kuik.sim.trace.Actor;
import io.kuik.sim.world.api.ClusterState;

/**
 * One way of getting pull secrets into namespaces, run against the benchmark's workload: kuik's
 * syncer or a baseline. Everything it does goes through the simulated API server under its own
 * actor name, so the trace counts its requests.
 */
interface Contender {

  /** The contender's actor in the trace: its requests, and the watches it opened. */
  Actor actor();

  /** Starts it once the workload's objects exist. */
  void start();

  /** A crash and an immediate restart: whatever it keeps in memory is lost. */
  void restart();

  /** Stops for good and lets go of everything it holds (its memory is measured by the drop). */
  void stop();

  /**
   * Whether a pod that resource {@code k} rewrote, created now in {@code namespace}, would find the
   * credential it pulls with (the rotated one once {@code rotated}), as this contender delivers it;
   * read without a request.
   */
  boolean serves(ClusterState state, String namespace, int k, boolean rotated);

  /**
   * Whether a rewritten pod created now gets the pull-secret gate, as kuik's webhook decides with
   * pull secret first (the syncer's Lease fresh); read without a request.
   */
  default boolean gates(ClusterState state, java.time.Instant now) {
    return false;
  }

  /** The name of the Secret a pod rewritten by resource {@code k} pulls with. */
  default String secretFor(int k) {
    return Workload.secretName(k);
  }
}
