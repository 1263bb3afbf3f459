package io.kuik.syncer;

import java.time.Instant;
import java.util.Objects;

/**
 * A wake-up the core asked for, as a value (DSLabs' timers): the executor hands it back in {@link
 * Input.TimerFired} at or after {@link #at}. The core numbers every timer it sets and waits for one
 * at a time, so a timer it no longer waits for (an earlier one was set since, or it fired already)
 * is recognised as stale when it fires and changes nothing: no timer is ever cancelled.
 *
 * @param at the earliest time it may fire
 * @param number the core's count of timers set, which makes each one distinct
 */
public record Timer(Instant at, long number) {

  public Timer {
    Objects.requireNonNull(at, "at");
  }
}
