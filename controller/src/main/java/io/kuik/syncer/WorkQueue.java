package io.kuik.syncer;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Pairs waiting to be reconciled, each with the time it is due. Enqueuing a pair already waiting
 * keeps the earlier time, so every event for one pair within the debounce window collapses into one
 * reconcile; a forced reconcile (a resync) stays forced until it runs.
 */
final class WorkQueue {

  /** A pair due at a time; {@code force} bypasses the applied-content hash. */
  record Item(Pair pair, Instant due, boolean force) {}

  private static final Comparator<Item> IN_DUE_ORDER =
      Comparator.comparing(Item::due).thenComparing(item -> item.pair().toString());

  private final Map<Pair, Item> waiting = new HashMap<>();
  // The same items by due time: a resync spread over its period wakes the core once per pair, and
  // each wake-up must not scan every waiting pair.
  private final TreeSet<Item> byDue = new TreeSet<>(IN_DUE_ORDER);

  void enqueue(Pair pair, Instant due, boolean force) {
    Item old = waiting.get(pair);
    Item item =
        old == null
            ? new Item(pair, due, force)
            : new Item(pair, old.due().isBefore(due) ? old.due() : due, old.force() || force);
    if (old != null) {
      byDue.remove(old);
    }
    waiting.put(pair, item);
    byDue.add(item);
  }

  /** Removes and returns the first pair due at {@code now}, if any. */
  Optional<Item> pollDue(Instant now) {
    if (byDue.isEmpty() || byDue.first().due().isAfter(now)) {
      return Optional.empty();
    }
    Item item = byDue.pollFirst();
    waiting.remove(item.pair());
    return Optional.of(item);
  }

  /** Removes and returns the pairs due at {@code now}, in a stable order. */
  List<Item> takeDue(Instant now) {
    List<Item> due = new ArrayList<>();
    while (!byDue.isEmpty() && !byDue.first().due().isAfter(now)) {
      Item item = byDue.pollFirst();
      waiting.remove(item.pair());
      due.add(item);
    }
    return due;
  }

  Optional<Instant> nextDue() {
    return byDue.isEmpty() ? Optional.empty() : Optional.of(byDue.first().due());
  }

  int size() {
    return waiting.size();
  }

  void forget(Pair pair) {
    Item old = waiting.remove(pair);
    if (old != null) {
      byDue.remove(old);
    }
  }
}
