package io.kuik.sim.check;

import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.TraceRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** An invariant judged on each request the syncer sent, one at a time. */
abstract class SyncerRequestInvariant implements Invariant {

  private final Actor syncer;

  SyncerRequestInvariant(Actor syncer) {
    this.syncer = syncer;
  }

  /** What is wrong with this request of the syncer, if anything. */
  abstract Optional<Violation> judge(TraceRecord.Request request);

  @Override
  public final List<Violation> check(WorldView view, List<TraceRecord> newRecords) {
    List<Violation> out = new ArrayList<>();
    for (TraceRecord record : newRecords) {
      if (record instanceof TraceRecord.Request request && request.actor().equals(syncer)) {
        judge(request).ifPresent(out::add);
      }
    }
    return out;
  }
}
