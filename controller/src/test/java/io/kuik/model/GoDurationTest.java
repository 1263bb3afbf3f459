package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Go's duration syntax, as {@code time.ParseDuration} reads it (cases from Go's
 * src/time/time_test.go, {@code parseDurationTests}): what a plugin's {@code cacheDuration} and a
 * provider's {@code defaultCacheDuration} are written in.
 */
class GoDurationTest {

  @ParameterizedTest(name = "if a duration is written {0}, expect {1} ns")
  @CsvSource({
    "0, 0",
    "5s, 5000000000",
    "30s, 30000000000",
    "1478s, 1478000000000",
    "-5s, -5000000000",
    "+5s, 5000000000",
    "-0, 0",
    "5.0s, 5000000000",
    "5.6s, 5600000000",
    "5.s, 5000000000",
    ".5s, 500000000",
    "1.004s, 1004000000",
    "100.00100s, 100001000000",
    "10ns, 10",
    "11us, 11000",
    "12µs, 12000",
    "13ms, 13000000",
    "15m, 900000000000",
    "16h, 57600000000000",
    "3h30m, 12600000000000",
    "10.5s4m, 250500000000",
    "-2m3.4s, -123400000000",
    "1h2m3s4ms5us6ns, 3723004005006",
    "39h9m14.425s, 140954425000000",
  })
  void readsWhatGoReads(String text, String nanos) {
    assertEquals(Duration.ofNanos(Long.parseLong(nanos)), GoDuration.parse(text));
  }

  @ParameterizedTest(name = "if a duration is written \"{0}\", expect a refusal")
  @ValueSource(strings = {"", "3", "-", "s", ".", "-.", ".s", "+.s", "1d", "12 h", "1h-2m", "h1"})
  void refusesWhatGoRefuses(String text) {
    assertThrows(IllegalArgumentException.class, () -> GoDuration.parse(text));
  }
}
