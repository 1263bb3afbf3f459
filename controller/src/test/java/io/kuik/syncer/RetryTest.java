package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RetryTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final Duration BASE = Duration.ofSeconds(1);
  static final Duration CAP = Duration.ofMinutes(5);

  @ParameterizedTest(name = "after {0} refusals in a row, wait {1} s")
  @CsvSource({"1, 1", "2, 2", "3, 4", "4, 8", "8, 128", "9, 256", "10, 300", "11, 300", "60, 300"})
  void theBackoffDoublesFromTheBaseUpToTheCap(int attempts, long seconds) {
    assertEquals(Duration.ofSeconds(seconds), Retry.backoff(attempts, BASE, CAP));
  }

  @Test
  void aCapBetweenTwoDoublingsIsReachedExactly() {
    assertEquals(Duration.ofSeconds(3), Retry.backoff(3, BASE, Duration.ofSeconds(3)));
    assertEquals(
        Duration.ofSeconds(3), Retry.backoff(2, Duration.ofSeconds(3), Duration.ofSeconds(3)));
  }

  @Test
  void eachRefusalCountsOneMoreAttemptFromItsOwnTime() {
    Retry first = Retry.after(null, T0, BASE, CAP);
    assertEquals(new Retry(1, T0.plusSeconds(1)), first);
    Retry second = Retry.after(first, T0.plusSeconds(1), BASE, CAP);
    assertEquals(new Retry(2, T0.plusSeconds(3)), second);
  }

  @Test
  void theBackoffIsAFloorUnderEveryDueTime() {
    Retry retry = new Retry(1, T0.plusSeconds(10));
    assertEquals(T0.plusSeconds(10), retry.notEarlierThan(T0.plusSeconds(1)));
    assertEquals(T0.plusSeconds(10), retry.notEarlierThan(T0.plusSeconds(10)));
    assertEquals(T0.plusSeconds(11), retry.notEarlierThan(T0.plusSeconds(11)));
  }

  @Test
  void aRetryHasAtLeastOneAttempt() {
    assertThrows(IllegalArgumentException.class, () -> new Retry(0, T0));
    assertThrows(NullPointerException.class, () -> new Retry(1, null));
  }
}
