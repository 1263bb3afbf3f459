package io.kuik.sim.check;

import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.Target;
import io.kuik.sim.trace.TraceRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Safety: while the syncer holds its writes because the admission policy that bounds them, or its
 * binding, is away (its own {@link Note.WriteBounds} says so), it sends no write of any kind: no
 * Secret apply, status, Event or gate release (docs/behaviour.md#writing-only-under-the-policy).
 * The one write gate is asked as each write leaves, so a write decided before the hold must not
 * slip through either. Judged on the syncer's own view, so it holds whatever the watches do; {@link
 * HoldFollowsThePolicy} judges how soon that view follows the cluster.
 */
public final class NothingWrittenWhileHeld implements Invariant {

  private final Actor syncer;
  private boolean held;
  private Instant since;
  private String why;

  public NothingWrittenWhileHeld(Actor syncer) {
    this.syncer = syncer;
  }

  @Override
  public String name() {
    return "nothing-written-while-held";
  }

  @Override
  public List<Violation> check(WorldView view, List<TraceRecord> newRecords) {
    List<Violation> out = new ArrayList<>();
    for (TraceRecord record : newRecords) {
      if (record instanceof Note.WriteBounds bounds && bounds.actor().equals(syncer)) {
        if (bounds.inPlace()) {
          held = false;
        } else if (!held) {
          held = true;
          since = bounds.at();
          why = bounds.why();
        }
      } else if (held
          && record instanceof TraceRecord.Request request
          && request.isWriteBy(syncer)) {
        Target target = request.target();
        out.add(
            new Violation(
                name(),
                "the syncer sent a "
                    + request.kind()
                    + " of "
                    + target
                    + " at "
                    + request.at()
                    + " while it held its writes since "
                    + since
                    + " ("
                    + why
                    + ")",
                target.isA(io.kuik.sim.trace.Resource.SECRETS) ? target : null));
      }
    }
    return out;
  }
}
