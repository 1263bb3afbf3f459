package io.kuik.syncer;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Pairs waiting to be reconciled, each with the time it is due. Enqueuing a pair already waiting
 * keeps the earlier time, so every event for one pair within the debounce window collapses into one
 * reconcile; a forced reconcile (a resync) stays forced until it runs.
 */
final class WorkQueue {

  /** A pair due at a time; {@code force} bypasses the applied-content hash. */
  record Item(Pair pair, Instant due, boolean force) {}

  private final Map<Pair, Item> waiting = new HashMap<>();

  void enqueue(Pair pair, Instant due, boolean force) {
    waiting.merge(
        pair,
        new Item(pair, due, force),
        (old, add) ->
            new Item(
                pair,
                old.due().isBefore(add.due()) ? old.due() : add.due(),
                old.force() || add.force()));
  }

  /** Removes and returns the pairs due at {@code now}, in a stable order. */
  List<Item> takeDue(Instant now) {
    List<Item> due = new ArrayList<>();
    for (Item item : waiting.values()) {
      if (!item.due().isAfter(now)) {
        due.add(item);
      }
    }
    due.sort(Comparator.comparing(Item::due).thenComparing(item -> item.pair().toString()));
    due.forEach(item -> waiting.remove(item.pair()));
    return due;
  }

  Optional<Instant> nextDue() {
    return waiting.values().stream().map(Item::due).min(Instant::compareTo);
  }

  int size() {
    return waiting.size();
  }

  void forget(Pair pair) {
    waiting.remove(pair);
  }
}
