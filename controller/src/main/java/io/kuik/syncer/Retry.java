package io.kuik.syncer;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A pair whose last write was refused: how many times in a row, and when the next try may go.
 * Events that keep coming never bring the try earlier, so a refused write never turns into a tight
 * loop.
 *
 * @param attempts refused writes in a row, at least 1
 * @param notBefore the earliest time of the next try
 */
record Retry(int attempts, Instant notBefore) {

  Retry {
    if (attempts < 1) {
      throw new IllegalArgumentException("attempts must be at least 1, got " + attempts);
    }
    Objects.requireNonNull(notBefore, "notBefore");
  }

  /**
   * The retry after one more refusal at {@code now}: capped exponential backoff, {@code base}, 2 ×
   * {@code base}, 4 × {@code base}, … up to {@code cap}.
   *
   * @param previous the retry before this refusal, or {@code null} after a success
   */
  static Retry after(Retry previous, Instant now, Duration base, Duration cap) {
    int attempts = previous == null ? 1 : previous.attempts + 1;
    return new Retry(attempts, now.plus(backoff(attempts, base, cap)));
  }

  /** The delay before the try after {@code attempts} refusals in a row. */
  static Duration backoff(int attempts, Duration base, Duration cap) {
    Duration delay = base;
    for (int i = 1; i < attempts && delay.compareTo(cap) < 0; i++) {
      delay = delay.multipliedBy(2);
    }
    return delay.compareTo(cap) > 0 ? cap : delay;
  }

  /** {@code due}, or the end of the backoff when that is later. */
  Instant notEarlierThan(Instant due) {
    return notBefore.isAfter(due) ? notBefore : due;
  }
}
