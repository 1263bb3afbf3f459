package io.kuik.syncer;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * How long a change of a source Secret takes to reach every pair it changes: from the change to the
 * last of those pairs applied. That bound is what says whether rotated credentials reach every
 * namespace in time.
 *
 * <p>A change waits on each pair it queued until a reconcile of that pair ran to the end after it:
 * applied, or found nothing to write. A pair whose write was refused keeps it waiting until a retry
 * succeeds. A change that needed no apply at all (an annotation edited) measures nothing.
 */
final class Propagations {

  private static final class Change {
    final Instant at;
    final Set<Pair> waitingOn;
    Instant lastApplied;

    Change(Instant at, Collection<Pair> pairs) {
      this.at = at;
      this.waitingOn = new HashSet<>(pairs);
    }
  }

  private final List<Change> open = new ArrayList<>();

  /** A source Secret changed at {@code at}, queueing {@code pairs}. */
  void changed(Instant at, Collection<Pair> pairs) {
    if (!pairs.isEmpty()) {
      open.add(new Change(at, pairs));
    }
  }

  /**
   * The reconcile of {@code pair} at {@code now} ran to the end, with an apply or without. Returns
   * the propagations this completed, each from its change to its last apply.
   */
  List<Duration> settled(Pair pair, Instant now, boolean applied) {
    List<Duration> completed = new ArrayList<>();
    for (Iterator<Change> it = open.iterator(); it.hasNext(); ) {
      Change change = it.next();
      if (!change.waitingOn.remove(pair)) {
        continue;
      }
      if (applied) {
        change.lastApplied = now;
      }
      if (change.waitingOn.isEmpty()) {
        it.remove();
        if (change.lastApplied != null) {
          completed.add(Duration.between(change.at, change.lastApplied));
        }
      }
    }
    return completed;
  }

  /** Changes still waiting on at least one pair. */
  int open() {
    return open.size();
  }
}
