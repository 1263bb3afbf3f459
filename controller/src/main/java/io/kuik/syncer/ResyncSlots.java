package io.kuik.syncer;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * When each pair owes a resync: a forced apply, which bypasses the applied-content hash and so
 * restores a Secret someone else deleted.
 *
 * <p>With a window, each pair has a fixed slot in it, an offset from its name: its resyncs fall at
 * {@code epoch + offset + k × window}, so the pairs spread evenly over the window and each comes
 * back at the same place. A written pair always owes its next slot after its last apply, whatever
 * applied it (the start's pass, an event, a retry), so a Secret deleted after an apply comes back
 * within one window. Owing only what the periodic resync pass asked for, at the pass plus the
 * offset, let a pair applied after its slot in the current window wait for the next pass and then
 * its offset: up to two windows.
 *
 * <p>Without a window (no resync) nothing is owed; the arithmetic still answers at once.
 */
final class ResyncSlots {

  private Duration window;
  private final Instant epoch;
  private final Map<Pair, Instant> owed = new HashMap<>();

  /**
   * @param window the resync window ({@link SyncerSettings#resyncPeriod}); zero: no slots
   * @param epoch where every pair's slots are counted from
   */
  ResyncSlots(Duration window, Instant epoch) {
    this.window = window;
    this.epoch = epoch;
  }

  /**
   * A resync asked at {@code from}: the pair owes a forced apply at its first slot at or after it
   * (at {@code from} without a window), or earlier if it owed one already. Returns when.
   */
  Instant owe(Pair pair, Instant from) {
    return owed.merge(pair, slotAtOrAfter(pair, from), (a, b) -> a.isBefore(b) ? a : b);
  }

  /** Whether the reconcile of the pair at {@code now} must bypass the hash. */
  boolean isOwed(Pair pair, Instant now) {
    Instant at = owed.get(pair);
    return at != null && !at.isAfter(now);
  }

  /**
   * After a reconcile of the pair at {@code now} that ran to the end. An apply pays what the pair
   * owed, and with a window makes it owe its next slot; a reconcile without an apply settles a
   * resync owed by now (it found nothing to write). Returns the resync still to come, if any: the
   * caller queues the pair for it.
   */
  Optional<Instant> settle(Pair pair, Instant now, boolean applied) {
    if (applied && !window.isZero()) {
      owed.put(pair, slotAtOrAfter(pair, now.plusNanos(1)));
    } else if (applied || isOwed(pair, now)) {
      owed.remove(pair);
    }
    return Optional.ofNullable(owed.get(pair));
  }

  void forget(Pair pair) {
    owed.remove(pair);
  }

  /**
   * A new window (a stretched resync, or back to the period): slots from now on are counted in it;
   * what a pair owes already stays owed.
   */
  void window(Duration value) {
    this.window = value;
  }

  /** The pair's first slot at or after {@code at}; {@code at} itself without a window. */
  Instant slotAtOrAfter(Pair pair, Instant at) {
    if (window.isZero()) {
      return at;
    }
    Instant first = epoch.plus(offsetWithin(pair, window));
    if (!at.isAfter(first)) {
      return first;
    }
    long windowNanos = window.toNanos();
    long periods = (Duration.between(first, at).toNanos() + windowNanos - 1) / windowNanos;
    return first.plusNanos(periods * windowNanos);
  }

  /**
   * A fixed offset of the pair within the window, from its name: every resync spreads the same way,
   * and no pair waits longer than the window.
   */
  static Duration offsetWithin(Pair pair, Duration window) {
    if (window.isZero()) {
      return Duration.ZERO;
    }
    long h = pair.toString().hashCode() * 0x9E3779B97F4A7C15L;
    h ^= h >>> 29;
    double fraction = (h >>> 11) / (double) (1L << 53);
    long nanos = window.toNanos();
    return Duration.ofNanos(Math.min(nanos - 1, (long) (fraction * nanos)));
  }
}
