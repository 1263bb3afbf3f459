package io.kuik.sim.check;

import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.trace.TraceRecord;
import java.util.Optional;

/**
 * The syncer never sends a DELETE, allowed or not: with no entry left a Secret holds {@code
 * {"auths":{}}}, and a deleted resource's Secrets go through the garbage collector, by their owner
 * reference.
 */
public final class SyncerNeverDeletes extends SyncerRequestInvariant {

  public SyncerNeverDeletes(Actor syncer) {
    super(syncer);
  }

  @Override
  public String name() {
    return "syncer-never-deletes";
  }

  @Override
  Optional<Violation> judge(TraceRecord.Request r) {
    if (r.kind() != RequestKind.DELETE) {
      return Optional.empty();
    }
    return Optional.of(
        new Violation(name(), "the syncer sent a DELETE of " + r.target(), r.target()));
  }
}
