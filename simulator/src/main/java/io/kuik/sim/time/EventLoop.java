package io.kuik.sim.time;

import io.kuik.ports.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;

/**
 * The world's one event loop on a virtual clock. Time moves only when the loop runs a timer or is
 * told to advance; nothing here reads the wall clock, sleeps or starts a thread, so one seed and
 * one script give one history.
 *
 * <p>Timers are ordered by due time, ties broken by scheduling order. An action that throws stops
 * the run and propagates: a simulated component that crashes the loop is a bug to see, not to hide.
 * Running the loop from inside one of its own timers is refused.
 */
public final class EventLoop implements Clock {

  /** Where every simulated history starts. */
  public static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");

  private final long seed;
  private final Instant start;
  private final PriorityQueue<Timer> timers =
      new PriorityQueue<>(Comparator.comparing(Timer::due).thenComparingLong(Timer::sequence));
  private final Map<String, Integer> forks = new HashMap<>();
  private Instant now;
  private long sequence;
  private long fired;
  private boolean running;

  public EventLoop(long seed) {
    this(seed, EPOCH);
  }

  public EventLoop(long seed, Instant start) {
    this.seed = seed;
    this.start = Objects.requireNonNull(start, "start");
    this.now = start;
  }

  public long seed() {
    return seed;
  }

  public Instant start() {
    return start;
  }

  @Override
  public Instant now() {
    return now;
  }

  /** Virtual time elapsed since the start. */
  public Duration elapsed() {
    return Duration.between(start, now);
  }

  /**
   * The random stream of one component, derived from the seed and the component's name. Forking the
   * same name again (a component restarted) gives the next incarnation's stream, {@code name#2},
   * {@code name#3}, ...
   */
  public SimRandom fork(String component) {
    int incarnation = forks.merge(component, 1, Integer::sum);
    return SimRandom.derive(seed, incarnation == 1 ? component : component + "#" + incarnation);
  }

  /** Runs {@code action} after {@code delay} (zero: after everything already due now). */
  public Timer schedule(Duration delay, String label, Runnable action) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("negative delay " + delay + " for " + label);
    }
    return scheduleAt(now.plus(delay), label, action);
  }

  public Timer scheduleAt(Instant due, String label, Runnable action) {
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(action, "action");
    Timer timer = new Timer(due.isBefore(now) ? now : due, sequence++, label, action);
    timers.add(timer);
    return timer;
  }

  /** Runs every timer due within {@code duration}, then leaves the clock at now + duration. */
  public void runFor(Duration duration) {
    runUntil(now.plus(duration));
  }

  /** Runs every timer due up to {@code instant}, then leaves the clock at {@code instant}. */
  public void runUntil(Instant instant) {
    if (instant.isBefore(now)) {
      throw new IllegalArgumentException("cannot run back to " + instant + " from " + now);
    }
    drain(instant);
    now = instant;
  }

  /**
   * Runs timers until none is left or the next one is due after now + {@code limit}. Returns true
   * when the loop went idle (the clock then stays at the last timer that fired), false when the
   * limit was reached (the clock is then at the limit; {@link #pending()} says what is left).
   */
  public boolean runUntilIdle(Duration limit) {
    Instant deadline = now.plus(limit);
    drain(deadline);
    if (live() == 0) {
      return true;
    }
    now = deadline;
    return false;
  }

  /** Labels of the timers still to fire, in firing order. */
  public List<String> pending() {
    List<Timer> copy = new ArrayList<>(timers);
    copy.sort(timers.comparator());
    List<String> labels = new ArrayList<>();
    for (Timer t : copy) {
      if (!t.cancelled()) {
        labels.add(t.label() + " @" + Duration.between(start, t.due()));
      }
    }
    return labels;
  }

  /** How many timers have fired since the start. */
  public long fired() {
    return fired;
  }

  private long live() {
    return timers.stream().filter(t -> !t.cancelled()).count();
  }

  private void drain(Instant deadline) {
    if (running) {
      throw new IllegalStateException("the event loop is already running");
    }
    running = true;
    try {
      while (!timers.isEmpty() && !timers.peek().due().isAfter(deadline)) {
        Timer next = timers.poll();
        if (next.cancelled()) {
          continue;
        }
        now = next.due();
        fired++;
        next.action().run();
      }
    } finally {
      running = false;
    }
  }
}
