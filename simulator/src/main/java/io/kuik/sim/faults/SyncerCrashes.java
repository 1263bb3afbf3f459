package io.kuik.sim.faults;

import io.kuik.sim.hosts.SyncerHost;

/**
 * The syncer's process dying. Fault model: the process is killed at any event boundary (an OOM
 * kill, a lost node, an eviction) and everything it held in memory is gone: its written set, its
 * grace clocks, its hashes and its queue. Kubernetes starts it again, at once or later. Nothing it
 * wrote is lost, the API server keeps it, so a correct syncer converges again from the API server
 * alone, leaving at most the documented leftovers of a restart (docs/behaviour.md#restarts). Each
 * edge is an incarnation note in the trace, where the checkers see it.
 */
public final class SyncerCrashes {

  private SyncerCrashes() {}

  /** Dies now; nothing starts it again. */
  public static void crash(SyncerHost syncer) {
    syncer.crash();
  }

  /** Dies now and is started again at once, as a container restart does. */
  public static void crashAndRestart(SyncerHost syncer) {
    syncer.crash();
    syncer.start();
  }

  /** Started again after a crash, as the Deployment's next pod is; nothing when it runs. */
  public static void restart(SyncerHost syncer) {
    syncer.start();
  }
}
