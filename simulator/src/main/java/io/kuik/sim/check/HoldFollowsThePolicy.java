package io.kuik.sim.check;

import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.TraceRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Safety: once the admission policy or its binding is deleted, the syncer stops writing within
 * {@code delay} (the watch that tells it), and writes nothing more until it is back
 * (docs/behaviour.md#writing-only-under-the-policy). Where the syncer's watches were disturbed
 * (events lost or late, an API outage) it may learn later: its writes are excused until {@code
 * relist} after the disturbance healed, and judged by {@link NothingWrittenWhileHeld} alone.
 */
public final class HoldFollowsThePolicy implements Invariant {

  private final Actor syncer;
  private final Duration delay;
  private final Duration relist;
  private Instant awaySince;
  private String away;
  private int disturbances;
  private Instant disturbedUntil;

  public HoldFollowsThePolicy(Actor syncer, Duration delay, Duration relist) {
    this.syncer = syncer;
    this.delay = delay;
    this.relist = relist;
  }

  @Override
  public String name() {
    return "hold-follows-the-policy";
  }

  @Override
  public List<Violation> check(WorldView view, List<TraceRecord> newRecords) {
    List<Violation> out = new ArrayList<>();
    for (TraceRecord record : newRecords) {
      if (record instanceof Note.FaultWindow window) {
        switch (window.fault()) {
          case POLICY_AWAY -> {
            awaySince = window.opens() ? window.at() : null;
            away = window.subject();
          }
          case WATCH_FAULT, API_OUTAGE -> {
            disturbances = Math.max(0, disturbances + (window.opens() ? 1 : -1));
            if (!window.opens()) {
              disturbedUntil = window.at().plus(relist);
            }
          }
          case POLICY_FAILURE -> {}
        }
      } else if (record instanceof TraceRecord.Request request
          && request.isWriteBy(syncer)
          && awaySince != null
          && !request.at().isBefore(awaySince.plus(delay))
          && disturbances == 0
          && (disturbedUntil == null || !request.at().isBefore(disturbedUntil))) {
        out.add(
            new Violation(
                name(),
                "the syncer sent a "
                    + request.kind()
                    + " of "
                    + request.target()
                    + " "
                    + Duration.between(awaySince, request.at()).toSeconds()
                    + " s after "
                    + away
                    + " was deleted, and it is not back",
                null));
      }
    }
    return out;
  }
}
