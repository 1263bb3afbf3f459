package io.kuik.sim.check;

import io.kuik.sim.trace.TraceRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * No write of the syncer is refused by an admission policy
 * (docs/behaviour.md#what-the-syncer-may-write): in a run without policy faults, every Secret the
 * syncer writes is one the chart's policy lets it write.
 */
public final class NoWriteRefusedByPolicy implements Invariant {

  private final String syncerActor;

  public NoWriteRefusedByPolicy(String syncerActor) {
    this.syncerActor = syncerActor;
  }

  @Override
  public String name() {
    return "no-write-refused-by-policy";
  }

  @Override
  public List<Violation> check(WorldView view, List<TraceRecord> newRecords) {
    List<Violation> out = new ArrayList<>();
    for (TraceRecord record : newRecords) {
      if (record instanceof TraceRecord.Request r
          && r.actor().equals(syncerActor)
          && !r.succeeded()
          && r.message() != null
          && r.message().contains("ValidatingAdmissionPolicy")) {
        out.add(
            new Violation(
                name(),
                "the policy refused the syncer's " + r.action() + " of " + r.target(),
                r.target()));
      }
    }
    return out;
  }
}
