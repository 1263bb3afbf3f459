package io.kuik.sim.check;

import io.kuik.sim.trace.TraceRecord;
import java.util.List;

/**
 * A named safety property, checked after every step of a run from the administrator's view and the
 * trace records added since the previous check. An invariant may keep memory between checks (what
 * it saw before), never a reference into the world.
 */
public interface Invariant {

  String name();

  /** The violations now; empty when the property holds. */
  List<Violation> check(WorldView view, List<TraceRecord> newRecords);
}
