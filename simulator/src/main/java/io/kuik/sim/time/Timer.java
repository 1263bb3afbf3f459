package io.kuik.sim.time;

import java.time.Instant;

/**
 * A scheduled action of the {@link EventLoop}. Timers fire in due order; timers due at the same
 * instant fire in the order they were scheduled.
 */
public final class Timer {

  private final Instant due;
  private final long sequence;
  private final String label;
  private final Runnable action;
  private boolean cancelled;

  Timer(Instant due, long sequence, String label, Runnable action) {
    this.due = due;
    this.sequence = sequence;
    this.label = label;
    this.action = action;
  }

  public Instant due() {
    return due;
  }

  public String label() {
    return label;
  }

  long sequence() {
    return sequence;
  }

  Runnable action() {
    return action;
  }

  /** The timer will not fire. Cancelling a timer that already fired does nothing. */
  public void cancel() {
    cancelled = true;
  }

  public boolean cancelled() {
    return cancelled;
  }

  @Override
  public String toString() {
    return label + "@" + due;
  }
}
