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
 *
 * <p>Two lanes: work an event asked for (a rewrite, a changed source, a retry) goes before bulk
 * work (the re-apply of every pair at start and at each resync). Under the write limit a bulk pass
 * over thousands of pairs takes minutes; a new rewrite must not wait behind it (the benchmark's
 * 10,000-namespace restart).
 */
final class WorkQueue {

  /**
   * A pair due at a time; {@code force} bypasses the applied-content hash; {@code bulk} marks a
   * start or resync pass rather than an event.
   */
  record Item(Pair pair, Instant due, boolean force, boolean bulk) {}

  private static final Comparator<Item> IN_DUE_ORDER =
      Comparator.comparing(Item::due).thenComparing(item -> item.pair().toString());

  private final Map<Pair, Item> waiting = new HashMap<>();
  // The same items by lane and due time: a resync spread over its period wakes the core once per
  // pair, and each wake-up must not scan every waiting pair.
  private final TreeSet<Item> events = new TreeSet<>(IN_DUE_ORDER);
  private final TreeSet<Item> bulk = new TreeSet<>(IN_DUE_ORDER);

  /** Work an event asked for. */
  void enqueue(Pair pair, Instant due, boolean force) {
    enqueue(pair, due, force, false);
  }

  void enqueue(Pair pair, Instant due, boolean force, boolean isBulk) {
    Item old = waiting.get(pair);
    Item item =
        old == null
            ? new Item(pair, due, force, isBulk)
            : new Item(
                pair,
                old.due().isBefore(due) ? old.due() : due,
                old.force() || force,
                old.bulk() && isBulk);
    if (old != null) {
      laneOf(old).remove(old);
    }
    waiting.put(pair, item);
    laneOf(item).add(item);
  }

  /** Removes and returns the next pair due at {@code now}, event work first, if any. */
  Optional<Item> pollDue(Instant now) {
    for (TreeSet<Item> lane : List.of(events, bulk)) {
      if (!lane.isEmpty() && !lane.first().due().isAfter(now)) {
        Item item = lane.pollFirst();
        waiting.remove(item.pair());
        return Optional.of(item);
      }
    }
    return Optional.empty();
  }

  /** Removes and returns the pairs due at {@code now}: event work first, each lane in due order. */
  List<Item> takeDue(Instant now) {
    List<Item> due = new ArrayList<>();
    for (Optional<Item> item = pollDue(now); item.isPresent(); item = pollDue(now)) {
      due.add(item.get());
    }
    return due;
  }

  Optional<Instant> nextDue() {
    Optional<Instant> first =
        events.isEmpty() ? Optional.empty() : Optional.of(events.first().due());
    if (bulk.isEmpty()) {
      return first;
    }
    Instant bulkFirst = bulk.first().due();
    return Optional.of(first.filter(f -> f.isBefore(bulkFirst)).orElse(bulkFirst));
  }

  int size() {
    return waiting.size();
  }

  void forget(Pair pair) {
    Item old = waiting.remove(pair);
    if (old != null) {
      laneOf(old).remove(old);
    }
  }

  private TreeSet<Item> laneOf(Item item) {
    return item.bulk() ? bulk : events;
  }
}
