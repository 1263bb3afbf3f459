package io.kuik.syncer;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The applies sent and not yet answered: at most one per pair, so that two applies of one pair
 * never race at the API server, and at most {@code max} in all. A pair that falls due again while
 * its apply is in flight waits here, parked, and goes back to the queue when the answer comes.
 */
final class InFlight {

  /**
   * What the answer of a pair's apply finds: whether the pair was forgotten meanwhile, and its
   * wait.
   */
  record Answer(boolean forgotten, Optional<WorkQueue.Item> parked) {}

  private static final class Sent {
    WorkQueue.Item parked;
    boolean forgotten;
  }

  private final int max;
  private final Map<Pair, Sent> sent = new HashMap<>();

  InFlight(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max must be at least 1, got " + max);
    }
    this.max = max;
  }

  /** Whether no other apply may be sent until an answer comes. */
  boolean isFull() {
    return sent.size() >= max;
  }

  int size() {
    return sent.size();
  }

  /** Whether the pair has an apply in flight. */
  boolean holds(Pair pair) {
    return sent.containsKey(pair);
  }

  void sent(Pair pair) {
    if (sent.putIfAbsent(pair, new Sent()) != null) {
      throw new IllegalStateException("an apply of " + pair + " is in flight already");
    }
  }

  /** Keeps the pair's due reconcile until its apply is answered. */
  void park(WorkQueue.Item item) {
    Sent s = sent.get(item.pair());
    if (s == null) {
      throw new IllegalStateException("no apply of " + item.pair() + " is in flight");
    }
    s.parked = s.parked == null ? item : s.parked.union(item);
  }

  /** Parked reconciles, due or not. */
  int parked() {
    return (int) sent.values().stream().filter(s -> s.parked != null).count();
  }

  /** The pair is gone (its namespace or resource deleted): its answer must record nothing. */
  void forget(Pair pair) {
    Sent s = sent.get(pair);
    if (s != null) {
      s.forgotten = true;
      s.parked = null;
    }
  }

  /** The pair's apply was answered: frees its place. */
  Answer answered(Pair pair) {
    Sent s = sent.remove(pair);
    if (s == null) {
      throw new IllegalStateException("no apply of " + pair + " is in flight");
    }
    return new Answer(s.forgotten, Optional.ofNullable(s.parked));
  }
}
