package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How long a spread resync's window must be for its pairs at its share of the write budget. */
class ResyncPaceTest {

  @ParameterizedTest(name = "if {1} pairs at {2} writes/s in a {0} s period, expect a {3} s window")
  @CsvSource({
    // At the defaults (--api-qps 20, --resync-share 0.5: 10 writes/s) a 600 s period holds 6,000.
    "600, 0, 10, 600",
    "600, 6000, 10, 600",
    "600, 6001, 10, 660",
    // 10,000 namespaces × 5 Always resources: 50,000 pairs need 5,000 s, 84 minutes.
    "600, 50000, 10, 5040",
    // 10,000 namespaces × 20 Always resources at 40 writes/s (--api-qps 80).
    "600, 200000, 40, 5040",
    "600, 50000, 100, 600",
    // Exactly as many as fit in a period of no whole minutes: the period itself.
    "90, 90, 1, 90",
    "90, 91, 1, 120",
    // No spread: no window to stretch.
    "0, 50000, 10, 0",
  })
  void theWindowIsThePeriodOrWhatTheShareAllowsInWholeMinutes(
      long periodSeconds, int pairs, double writesPerSecond, long expectedSeconds) {
    assertEquals(
        Duration.ofSeconds(expectedSeconds),
        ResyncPace.window(Duration.ofSeconds(periodSeconds), pairs, writesPerSecond));
  }
}
