package io.kuik.syncer;

import java.time.Duration;
import java.time.Instant;

/**
 * A token bucket on the core's writes, in the core's own time: {@code qps} tokens a second, at most
 * {@code burst} saved up. It never waits: the core asks whether a token is there, and when none is,
 * asks {@link #nextTokenAt} and sets its timer then. A virtual clock drives it as well as the
 * system clock.
 */
final class WriteBudget {

  private final double qps;
  private final int burst;
  private double tokens;
  private Instant refilledAt;

  /** Full ({@code burst} tokens) at its first use. */
  WriteBudget(double qps, int burst) {
    this.qps = qps;
    this.burst = burst;
    this.tokens = burst;
  }

  /** Whether a write may go now; does not take the token. */
  boolean hasToken(Instant now) {
    refill(now);
    return tokens >= 1;
  }

  /**
   * Takes one token; without one (an Event, which is never delayed) the bucket goes into debt, and
   * the next token comes once it is paid.
   */
  void take(Instant now) {
    refill(now);
    tokens -= 1;
  }

  /** The earliest time a token will be there, {@code now} if one is. */
  Instant nextTokenAt(Instant now) {
    refill(now);
    if (tokens >= 1) {
      return now;
    }
    // Rounded up to the next nanosecond so that the wake-up never comes a hair too early.
    long nanos = (long) Math.ceil((1 - tokens) / qps * 1e9);
    return now.plus(Duration.ofNanos(Math.max(1, nanos)));
  }

  private void refill(Instant now) {
    if (refilledAt == null) {
      refilledAt = now;
    } else if (now.isAfter(refilledAt)) {
      double seconds = Duration.between(refilledAt, now).toNanos() / 1e9;
      tokens = Math.min(burst, tokens + seconds * qps);
      refilledAt = now;
    }
  }
}
