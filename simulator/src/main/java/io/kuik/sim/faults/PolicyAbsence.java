package io.kuik.sim.faults;

import io.kuik.sim.time.EventLoop;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.Trace;
import java.time.Duration;
import java.util.Objects;

/**
 * The admission policy that bounds the syncer's writes, or its binding, gone for a while.
 *
 * <p>Fault model: someone or something deletes it ({@code helm uninstall} while the syncer runs
 * through its termination grace, a person by mistake, a GitOps tool pruning what it does not own)
 * and an upgrade or a sync creates it again. The syncer must hold every write meanwhile (no Secret,
 * status, Event or gate release goes out unbounded) and write every pair once it is back
 * (docs/behaviour.md#writing-only-under-the-policy). The deletion and the return are requests of
 * the cluster's administrator, seen by the syncer's policy watch like any other change; the
 * window's edges are noted in the trace.
 */
public final class PolicyAbsence {

  private final EventLoop loop;
  private final Trace trace;
  // Bumped by every absence and return, so that an absence's timed return is ignored once a later
  // absence overtook it: that later one returns both.
  private int generation;
  private boolean away;

  public PolicyAbsence(EventLoop loop, Trace trace) {
    this.loop = Objects.requireNonNull(loop, "loop");
    this.trace = Objects.requireNonNull(trace, "trace");
  }

  /**
   * {@code delete} now, {@code restore} after {@code window} unless a later absence or {@link
   * #back} came first.
   *
   * @param subject what goes, as the timeline names it
   */
  public void awayFor(String subject, Runnable delete, Runnable restore, Duration window) {
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("an absence needs a positive window, not " + window);
    }
    int mine = ++generation;
    delete.run();
    away = true;
    edge(true, subject, "deleted for " + window);
    loop.schedule(
        window,
        subject + " created again",
        () -> {
          if (generation == mine) {
            back(subject, restore);
          }
        });
  }

  /** What is away is created again now; nothing when nothing is away. */
  public void back(String subject, Runnable restore) {
    generation++;
    if (!away) {
      return;
    }
    restore.run();
    away = false;
    edge(false, subject, "created again");
  }

  private void edge(boolean opens, String subject, String detail) {
    trace.add(new Note.FaultWindow(loop.now(), Note.Fault.POLICY_AWAY, opens, subject, detail));
  }
}
