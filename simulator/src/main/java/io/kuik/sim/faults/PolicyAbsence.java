package io.kuik.sim.faults;

import io.kuik.sim.time.EventLoop;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.Trace;
import io.kuik.sim.world.ApiException;
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

  /** How long a refused return waits before it is tried again. */
  static final Duration RESTORE_RETRY = Duration.ofSeconds(30);

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
   * #back} came first. While something is already away, nothing more is deleted and the window
   * stays open: this absence only moves the return later. A deletion the API server refuses (an
   * outage) changes nothing.
   *
   * @param subject what goes, as the timeline names it
   */
  public void awayFor(String subject, Runnable delete, Runnable restore, Duration window) {
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("an absence needs a positive window, not " + window);
    }
    if (!away) {
      delete.run();
      edge(true, subject, "deleted for " + window); // one opening edge per window in the trace
    }
    int mine = ++generation;
    away = true;
    loop.schedule(window, subject + " created again", () -> restoreIfDue(subject, restore, mine));
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

  /**
   * The timed return of absence {@code mine}, unless a later one overtook it. Refused by the API
   * server (an outage), it is tried again as a Helm upgrade or a GitOps sync would be: the policy
   * never stays away for good because of one refusal.
   */
  private void restoreIfDue(String subject, Runnable restore, int mine) {
    if (generation != mine || !away) {
      return;
    }
    try {
      restore.run();
    } catch (ApiException refused) {
      loop.schedule(
          RESTORE_RETRY,
          subject + " created again (retried)",
          () -> restoreIfDue(subject, restore, mine));
      return;
    }
    generation++;
    away = false;
    edge(false, subject, "created again");
  }

  private void edge(boolean opens, String subject, String detail) {
    trace.add(new Note.FaultWindow(loop.now(), Note.Fault.POLICY_AWAY, opens, subject, detail));
  }
}
