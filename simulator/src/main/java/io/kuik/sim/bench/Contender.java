package io.kuik.sim.bench;

/**
 * One way of getting pull secrets into namespaces, run against the benchmark's workload: kuik's
 * syncer or a baseline. Everything it does goes through the simulated API server under its own
 * actor name, so the trace counts its requests.
 */
interface Contender {

  /** The contender's actor name in the trace. */
  String actor();

  /** The prefix of its watchers' names in the trace, or null when it watches nothing. */
  String watcherPrefix();

  /** Starts it once the workload's objects exist. */
  void start();

  /** A crash and an immediate restart: whatever it keeps in memory is lost. */
  void restart();
}
