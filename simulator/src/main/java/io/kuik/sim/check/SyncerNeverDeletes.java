package io.kuik.sim.check;

import io.kuik.sim.trace.TraceRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * The syncer never sends a DELETE, allowed or not: with no entry left a Secret holds {@code
 * {"auths":{}}}, and a deleted resource's Secrets go through the garbage collector, by their owner
 * reference.
 */
public final class SyncerNeverDeletes implements Invariant {

  private final String syncerActor;

  public SyncerNeverDeletes(String syncerActor) {
    this.syncerActor = syncerActor;
  }

  @Override
  public String name() {
    return "syncer-never-deletes";
  }

  @Override
  public List<Violation> check(WorldView view, List<TraceRecord> newRecords) {
    List<Violation> out = new ArrayList<>();
    for (TraceRecord record : newRecords) {
      if (record instanceof TraceRecord.Request r
          && r.actor().equals(syncerActor)
          && r.action().equals("DELETE")) {
        out.add(new Violation(name(), "the syncer sent a DELETE of " + r.target(), r.target()));
      }
    }
    return out;
  }
}
