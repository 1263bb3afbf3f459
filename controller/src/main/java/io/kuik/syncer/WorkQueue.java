package io.kuik.syncer;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Pairs waiting to be reconciled, each with the time it is due and its {@link Lane}. A pair waits
 * at most once: enqueuing it again keeps the earlier time and the more urgent lane, so every event
 * for one pair within the debounce window collapses into one reconcile. Due pairs are handed out
 * lane by lane ({@link Lane#EVENT} first), each lane in due order.
 *
 * <p>It also keeps each lane's figures, as a workqueue of controller-runtime does: a pair is
 * <i>due</i> (in the lane's depth) from its due time until it is taken.
 */
final class WorkQueue {

  /** A pair due at a time, in a lane. */
  record Item(Pair pair, Instant due, Lane lane) {
    Item {
      Objects.requireNonNull(pair, "pair");
      Objects.requireNonNull(due, "due");
      Objects.requireNonNull(lane, "lane");
    }

    /** This pair's wait joined with another of its own: the earlier time, the more urgent lane. */
    Item union(Item other) {
      if (!pair.equals(other.pair)) {
        throw new IllegalArgumentException(other.pair + " is not " + pair);
      }
      return new Item(pair, earlier(due, other.due), moreUrgent(lane, other.lane));
    }
  }

  /** Sort key: due time, then the pair's name, so that the order never depends on hashing. */
  private record Key(Instant due, String pair) implements Comparable<Key> {
    @Override
    public int compareTo(Key other) {
      int byDue = due.compareTo(other.due);
      return byDue != 0 ? byDue : pair.compareTo(other.pair);
    }

    /** Sorts before every item due at {@code at}: no pair's name is empty. */
    static Key before(Instant at) {
      return new Key(at, "");
    }
  }

  private final Map<Pair, Item> waiting = new HashMap<>();
  // The same items by lane and due time: a resync spread over its window wakes the core once per
  // pair, and each wake-up must not scan every waiting pair.
  private final Map<Lane, TreeMap<Key, Item>> lanes = new EnumMap<>(Lane.class);
  private final Map<Lane, Counts> counts = new EnumMap<>(Lane.class);
  // Items due at or before this instant are counted in their lane's depth.
  private Instant seen = Instant.MIN;

  private static final class Counts {
    int due;
    long adds;
    long retries;
  }

  WorkQueue() {
    for (Lane lane : Lane.values()) {
      lanes.put(lane, new TreeMap<>());
      counts.put(lane, new Counts());
    }
  }

  void enqueue(Pair pair, Instant due, Lane lane) {
    Item old = waiting.get(pair);
    Item item = old == null ? new Item(pair, due, lane) : old.union(new Item(pair, due, lane));
    if (old != null) {
      remove(old);
    }
    if (old == null || old.lane() != item.lane()) {
      counts.get(item.lane()).adds++;
    }
    add(item);
  }

  /** A refused apply of an item taken from {@code from}, to be tried again as event work. */
  void retry(Pair pair, Instant due, Lane from) {
    counts.get(from).retries++;
    enqueue(pair, due, Lane.EVENT);
  }

  /** Puts a taken item back as it was: it keeps its place in line, and is no new work. */
  void putBack(Item item) {
    Item old = waiting.get(item.pair());
    if (old != null) {
      remove(old);
      item = old.union(item);
    }
    add(item);
  }

  /** Removes and returns the next pair of {@code lane} due at {@code now}, if any. */
  Optional<Item> pollDue(Instant now, Lane lane) {
    Map.Entry<Key, Item> first = lanes.get(lane).firstEntry();
    if (first == null || first.getKey().due().isAfter(now)) {
      return Optional.empty();
    }
    remove(first.getValue());
    return Optional.of(first.getValue());
  }

  Optional<Instant> nextDue() {
    Instant next = null;
    for (TreeMap<Key, Item> lane : lanes.values()) {
      if (!lane.isEmpty()) {
        next = next == null ? lane.firstKey().due() : earlier(next, lane.firstKey().due());
      }
    }
    return Optional.ofNullable(next);
  }

  int size() {
    return waiting.size();
  }

  /** When the first pair of {@code lane} is due, if it holds any. */
  Optional<Instant> nextDue(Lane lane) {
    TreeMap<Key, Item> items = lanes.get(lane);
    return items.isEmpty() ? Optional.empty() : Optional.of(items.firstKey().due());
  }

  /** Pairs waiting in {@code lane} that {@code test} accepts, due or not. */
  int count(Lane lane, java.util.function.Predicate<Pair> test) {
    return (int) lanes.get(lane).values().stream().map(Item::pair).filter(test).count();
  }

  void forget(Pair pair) {
    take(pair);
  }

  /** Removes and returns the pair's wait, due or not, if it has one. */
  Optional<Item> take(Pair pair) {
    Item old = waiting.get(pair);
    if (old != null) {
      remove(old);
    }
    return Optional.ofNullable(old);
  }

  /** The figures of {@code lane} at {@code now}. */
  LaneStats stats(Lane lane, Instant now) {
    advance(now);
    TreeMap<Key, Item> items = lanes.get(lane);
    Counts c = counts.get(lane);
    Duration longest =
        items.isEmpty() || items.firstKey().due().isAfter(now)
            ? Duration.ZERO
            : Duration.between(items.firstKey().due(), now);
    return new LaneStats(c.due, items.size() - c.due, c.adds, c.retries, longest);
  }

  private void add(Item item) {
    waiting.put(item.pair(), item);
    lanes.get(item.lane()).put(key(item), item);
    if (!item.due().isAfter(seen)) {
      counts.get(item.lane()).due++;
    }
  }

  private void remove(Item item) {
    waiting.remove(item.pair());
    lanes.get(item.lane()).remove(key(item));
    if (!item.due().isAfter(seen)) {
      counts.get(item.lane()).due--;
    }
  }

  /** Counts the items that fell due since the last look; each is counted once. */
  private void advance(Instant now) {
    if (!now.isAfter(seen)) {
      return;
    }
    Key from = Key.before(seen.plusNanos(1));
    Key to = Key.before(now.plusNanos(1));
    for (Lane lane : Lane.values()) {
      counts.get(lane).due += lanes.get(lane).subMap(from, true, to, false).size();
    }
    seen = now;
  }

  private static Key key(Item item) {
    return new Key(item.due(), item.pair().toString());
  }

  private static Instant earlier(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }

  private static Lane moreUrgent(Lane a, Lane b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
