package io.kuik.syncer;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * When the core's work goes (docs/architecture.md#pacing): the one owner of the work lanes, of the
 * write budget that every write pays (applies, statuses and Events: the only rate limit of the
 * syncer's writes, {@code --api-qps} and {@code --api-burst}), of the resync's share of it, of the
 * applies in flight, of each failing pair's backoff, of the resync's slots, window and ticks, and
 * of the one timer the core waits for. It decides nothing about what a pair holds.
 */
final class Pacer {

  private static final System.Logger LOG = System.getLogger(Pacer.class.getName());

  private final SyncerSettings settings;
  private final WorkQueue queue = new WorkQueue();
  private final InFlight inFlight;
  private final Map<Pair, Retry> retries = new HashMap<>();

  /** The one budget of every write. */
  private final WriteBudget budget;

  /** The resync lane's own share of {@link #budget}: event work always keeps the rest. */
  private final WriteBudget resyncBudget;

  private ResyncSlots slots;

  /** The resync window in use: the period, or longer when the share cannot apply every pair. */
  private Duration window;

  /** When the next resync pass is owed; null without a resync. */
  private Instant nextResync;

  /** The timer the core waits for; null when it waits for none. */
  private Timer awaited;

  private long timersSet;

  Pacer(SyncerSettings settings) {
    this.settings = settings;
    this.budget = new WriteBudget(settings.writeQps(), settings.writeBurst());
    this.resyncBudget =
        new WriteBudget(
            resyncRate(), Math.max(1, (int) (settings.writeBurst() * settings.resyncShare())));
    this.inFlight = new InFlight(settings.maxInFlight());
    this.window = settings.resyncPeriod();
  }

  /**
   * The core starts at {@code now}: resync slots are counted from here, the first pass one period
   * on.
   */
  void start(Instant now) {
    slots = new ResyncSlots(settings.resyncPeriod(), now);
    nextResync = settings.resyncPeriod().isZero() ? null : now.plus(settings.resyncPeriod());
  }

  // ---- the lanes ------------------------------------------------------------------------------

  /**
   * Queues the pair, but never before a failing pair's backoff ends: events that keep coming must
   * not turn the retry of a refused write into a tight loop.
   */
  void enqueue(Pair pair, Instant due, Lane lane) {
    Retry retry = retries.get(pair);
    queue.enqueue(pair, retry == null ? due : retry.notEarlierThan(due), lane);
  }

  /** The end of a grace: event work at that very time. */
  void expiresAt(Pair pair, Instant at) {
    queue.enqueue(pair, at, Lane.EVENT);
  }

  /**
   * The next pair to reconcile at {@code now}: event work first; then a resync slot that is due,
   * while the resync has its share of the budget left (its share is also what it is owed, so slots
   * that fall due during the start's pass are applied on time instead of piling up behind it); then
   * the start's pass, with what is left. A pair whose apply is in flight is parked until its
   * answer.
   */
  Optional<WorkQueue.Item> next(Instant now) {
    while (true) {
      Optional<WorkQueue.Item> item =
          queue
              .pollDue(now, Lane.EVENT)
              .or(
                  () ->
                      resyncBudget.hasToken(now)
                          ? queue.pollDue(now, Lane.RESYNC)
                          : Optional.empty())
              .or(() -> queue.pollDue(now, Lane.START));
      if (item.isEmpty() || !inFlight.holds(item.get().pair())) {
        return item;
      }
      inFlight.park(item.get());
    }
  }

  /** Whether an apply may be sent now: room in flight and a write token. */
  boolean mayApply(Instant now) {
    return !inFlight.isFull() && budget.hasToken(now);
  }

  boolean inFlightFull() {
    return inFlight.isFull();
  }

  /** A taken item that could not be written now keeps its place in line. */
  void putBack(WorkQueue.Item item) {
    queue.putBack(item);
  }

  /** The item's apply is sent: it pays its token (a resync's also its share's), and flies. */
  void sent(WorkQueue.Item item, Instant now) {
    budget.take(now);
    if (item.lane() == Lane.RESYNC) {
      resyncBudget.take(now);
    }
    inFlight.sent(item.pair());
  }

  /**
   * Whether event work is due now that could be sent (a Secret a pod waits for): a gate's release,
   * which would take its token, waits for it; the pod's own release follows its Secret anyway.
   */
  boolean eventWorkWaiting(Instant now) {
    return !inFlight.isFull()
        && queue.nextDue(Lane.EVENT).filter(due -> !due.isAfter(now)).isPresent();
  }

  /** Takes a write token for a status, if there is one now. */
  boolean takeToken(Instant now) {
    if (!budget.hasToken(now)) {
      return false;
    }
    budget.take(now);
    return true;
  }

  /**
   * An Event pays its token on the spot, into debt if none is left: it is never delayed, and the
   * writes after it wait until the debt is paid.
   */
  void owe(Instant now) {
    budget.take(now);
  }

  /** The pair's apply was answered: frees its place, and says what waited for it. */
  InFlight.Answer answered(Pair pair) {
    return inFlight.answered(pair);
  }

  /**
   * The pair's apply, taken from {@code from}, was refused: it is tried again as event work after a
   * capped exponential backoff, and a change queued meanwhile waits for the backoff too.
   */
  Retry refused(Pair pair, Instant now, Lane from) {
    Retry retry = Retry.after(retries.get(pair), now, settings.retryBase(), settings.retryCap());
    retries.put(pair, retry);
    Optional<WorkQueue.Item> waiting = queue.take(pair);
    queue.retry(pair, retry.notBefore(), from);
    waiting.ifPresent(w -> enqueue(pair, w.due(), w.lane()));
    return retry;
  }

  /** The pair's apply was taken; whether it had been refused before. */
  boolean succeeded(Pair pair) {
    return retries.remove(pair) != null;
  }

  void forget(Pair pair) {
    queue.forget(pair);
    inFlight.forget(pair);
    retries.remove(pair);
    slots.forget(pair);
  }

  // ---- the resync -----------------------------------------------------------------------------

  /** Whether the periodic resync pass is due at {@code now}. */
  boolean resyncDue(Instant now) {
    return nextResync != null && !now.isBefore(nextResync);
  }

  /**
   * A resync pass at {@code now} for {@code pairs} to apply (the periodic one, or the one that
   * follows the admission policy's return): the window they need from now on, the next pass one
   * period later (none without a period).
   */
  void resyncing(Instant now, int pairs) {
    nextResync = settings.resyncPeriod().isZero() ? null : now.plus(settings.resyncPeriod());
    pace(pairs);
  }

  /** The pair owes a forced apply at its first slot from {@code from}; queued for it. */
  void oweResync(Pair pair, Instant from) {
    enqueue(pair, slots.owe(pair, from), Lane.RESYNC);
  }

  /** Whether the reconcile of the pair at {@code now} must bypass the applied-content hash. */
  boolean resyncOwed(Pair pair, Instant now) {
    return slots.isOwed(pair, now);
  }

  /** After a reconcile of the pair that ran to the end: the resync still to come is queued. */
  void settle(Pair pair, Instant now, boolean applied) {
    slots.settle(pair, now, applied).ifPresent(at -> enqueue(pair, at, Lane.RESYNC));
  }

  /** Pairs the start's pass has still to take that {@code test} accepts. */
  int startPassLeft(Predicate<Pair> test) {
    return queue.count(Lane.START, test);
  }

  /** The resync window in effect; zero without a resync. */
  Duration window() {
    return window;
  }

  private void pace(int pairs) {
    Duration needed = ResyncPace.window(settings.resyncPeriod(), pairs, resyncRate());
    if (needed.equals(window)) {
      return;
    }
    if (needed.compareTo(settings.resyncPeriod()) > 0) {
      LOG.log(
          Level.WARNING,
          "resync stretched to every {0} instead of every {1}: {2} pairs at {3} writes/s"
              + " (--resync-share {4} of --api-qps {5}) do not fit in the period; raise --api-qps"
              + " or --resync-share to shorten it",
          needed,
          settings.resyncPeriod(),
          pairs,
          resyncRate(),
          settings.resyncShare(),
          settings.writeQps());
    } else {
      LOG.log(Level.INFO, "resync back to every {0}", needed);
    }
    window = needed;
    slots.window(needed);
  }

  private double resyncRate() {
    return settings.writeQps() * settings.resyncShare();
  }

  // ---- the timer ------------------------------------------------------------------------------

  /**
   * Whether {@code timer} is the one the core waits for; it is then no longer waited for. Any other
   * is stale: an earlier timer was set since, or this one fired already.
   */
  boolean fired(Timer timer) {
    if (!timer.equals(awaited)) {
      return false;
    }
    awaited = null;
    return true;
  }

  /**
   * A timer for the next work that can go, when it is earlier than the one waited for: the next due
   * pair with a token for it (while as many applies as allowed fly, queued pairs wait for an
   * answer, which asks again), a status or a gate's release due, the next resync pass, the next
   * credential trial (not a write to the API server: it waits for no token).
   */
  Optional<Effect.WakeAt> wake(
      Instant now, Optional<Instant> writeDue, Optional<Instant> trialDue) {
    boolean full = inFlight.isFull();
    Instant resync =
        full
            ? null
            : queue
                .nextDue(Lane.RESYNC)
                .map(due -> later(due, resyncBudget.nextTokenAt(now)))
                .orElse(null);
    Instant queued =
        full
            ? null
            : earlier(
                queue.nextDue(Lane.EVENT).orElse(null), queue.nextDue(Lane.START).orElse(null));
    Instant write = earlier(resync, earlier(queued, writeDue.orElse(null)));
    if (write != null && !budget.hasToken(now)) {
      write = later(write, budget.nextTokenAt(now));
    }
    Instant due = earlier(earlier(write, nextResync), trialDue.orElse(null));
    if (due == null || (awaited != null && !due.isBefore(awaited.at()))) {
      return Optional.empty();
    }
    awaited = new Timer(due, ++timersSet);
    return Optional.of(new Effect.WakeAt(awaited));
  }

  // ---- what the metrics read ------------------------------------------------------------------

  /** Pairs waiting, in the queue or parked behind their apply in flight. */
  int waiting() {
    return queue.size() + inFlight.parked();
  }

  int appliesInFlight() {
    return inFlight.size();
  }

  Map<Lane, LaneStats> stats(Instant now) {
    Map<Lane, LaneStats> stats = new EnumMap<>(Lane.class);
    for (Lane lane : Lane.values()) {
      stats.put(lane, queue.stats(lane, now));
    }
    return stats;
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  /** The earlier of two times, either of which may be null (none). */
  private static Instant earlier(Instant a, Instant b) {
    if (a == null) {
      return b;
    }
    return b == null || a.isBefore(b) ? a : b;
  }
}
