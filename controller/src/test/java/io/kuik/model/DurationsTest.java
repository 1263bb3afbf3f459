package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** One way to write a duration everywhere: as the chart's values and the flags write it. */
class DurationsTest {

  @ParameterizedTest(name = "if the duration is {0}, expect {1}")
  @CsvSource({
    "PT1M4S, 1m4s",
    "PT15M, 15m",
    "PT15S, 15s",
    "PT0.5S, 500ms",
    "PT1.5S, 1.5s",
    "PT1H30M, 1h30m",
    "PT1H0.25S, 1h0.25s",
    "PT10H, 10h",
    "PT0S, 0s",
    "PT-2S, -2s"
  })
  void writesTheLargestUnitsFirstLeavingOutZeros(String iso, String written) {
    assertEquals(written, Durations.text(Duration.parse(iso)));
  }

  @ParameterizedTest(name = "a default of {0} reads back as written")
  @ValueSource(strings = {"500ms", "30s", "15m", "10m", "1h", "0s", "2s"})
  void whatAFlagTakesPrintsAsTheFlagIsWritten(String flag) {
    assertEquals(Optional.of(flag), Durations.parse(flag).map(Durations::text));
  }

  @ParameterizedTest(name = "if {0}, expect nothing")
  @ValueSource(strings = {"", "15", "m", "1h30m", "1.5h", "-1s", "15M", "PT15M"})
  void readsOnlyANumberAndOneUnit(String text) {
    assertEquals(Optional.empty(), Durations.parse(text));
  }
}
