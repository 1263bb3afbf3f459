package io.kuik.syncer;

import java.time.Duration;

/**
 * How long a spread resync's window must be (docs/decisions/0033-resync-share.md): every pair that
 * holds a Secret owes one forced apply per window, and the resync lane may send at most its share
 * of the write budget. When the configured period cannot hold them all at that rate, the window
 * stretches to what the rate allows, rounded up to whole minutes; it never shrinks below the
 * period.
 */
final class ResyncPace {

  private ResyncPace() {}

  /**
   * The window for {@code pairs} forced applies at {@code writesPerSecond}, at least {@code
   * period}; zero when {@code period} is zero (no spread: every pair is owed at once, the lane is
   * still paced).
   */
  static Duration window(Duration period, int pairs, double writesPerSecond) {
    if (period.isZero()) {
      return Duration.ZERO;
    }
    Duration required = Duration.ofSeconds((long) Math.ceil(pairs / writesPerSecond));
    if (required.compareTo(period) <= 0) {
      return period;
    }
    // Whole minutes: a few pairs more or less do not change the window (nor log a line).
    long minutes = (required.toSeconds() + 59) / 60;
    return Duration.ofMinutes(minutes);
  }
}
