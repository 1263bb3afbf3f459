package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.hosts.SyncerHost;
import io.kuik.syncer.Lane;
import io.kuik.syncer.LaneStats;
import io.kuik.syncer.SecretSyncer;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Evidence that a syncer instance took a pair up, for the scenarios whose point is that it wrote
 * nothing: without it, a syncer that never ran would pass them.
 *
 * <p>An informer event makes the core queue every pair it concerns as event work
 * (docs/architecture.md#data-flow), and a pair leaves the queue only by being reconciled (or
 * forgotten with its resource or namespace). So: the same core is still running, it has reconciled
 * pairs since the mark, and no event work nor start's pass waits in its queue (the resync's slots
 * always do), hence the pairs the events concerned were reconciled.
 */
final class SyncerWork {

  /** A syncer's core and how many pairs it had reconciled when a step noted it. */
  record Mark(SecretSyncer core, long reconciles) {}

  private SyncerWork() {}

  static Mark mark(SyncerHost host, String instance) {
    SecretSyncer core =
        host.syncer()
            .orElseThrow(
                () ->
                    new AssertionError(
                        "the syncer in " + instance + " has not started yet: let time pass first"));
    return new Mark(core, core.counters().reconciles());
  }

  static void assertReconciledSince(
      SyncerHost host, Mark mark, String instance, String pair, Instant now) {
    assertNotNull(mark, "no step noted the syncer in " + instance + " before");
    SecretSyncer core = host.syncer().orElse(null);
    assertNotNull(core, "the syncer in " + instance + " is not running, so it reconciled nothing");
    assertSame(mark.core(), core, "the syncer in " + instance + " restarted since it was noted");
    long reconciled = core.counters().reconciles() - mark.reconciles();
    assertTrue(
        reconciled > 0, "the syncer in " + instance + " reconciled no pair since it was noted");
    Map<Lane, LaneStats> lanes = core.queueStats(now);
    for (Lane lane : List.of(Lane.EVENT, Lane.START)) {
      LaneStats stats = lanes.get(lane);
      assertEquals(
          0,
          stats.depth() + stats.scheduled(),
          "pairs still wait in the "
              + lane.label()
              + " lane of the syncer in "
              + instance
              + "; "
              + pair
              + " may be one");
    }
  }
}
