package io.kuik.syncer;

import java.time.Duration;
import java.util.Objects;

/**
 * One lane of the syncer's work queue at a moment, as controller-runtime reports a workqueue.
 *
 * @param depth pairs due and not taken yet: waiting for the core, or for a write token
 * @param scheduled pairs waiting for a later time: the debounce, a backoff, a grace's end, a resync
 *     slot
 * @param adds pairs that entered the lane since the start (a pair already waiting there is not
 *     added again)
 * @param retries refused applies of pairs taken from the lane, queued again as event work
 * @param longestWaiting how long the pair due longest ago has been due; zero when none is
 */
public record LaneStats(
    int depth, int scheduled, long adds, long retries, Duration longestWaiting) {

  public LaneStats {
    Objects.requireNonNull(longestWaiting, "longestWaiting");
  }
}
