package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.TypeConversionException;

class DurationConverterTest {

  private final DurationConverter converter = new DurationConverter();

  @ParameterizedTest(name = "if {0}, expect {1} ms")
  @CsvSource({
    "500ms, 500",
    "0s, 0",
    "30s, 30000",
    "15m, 900000",
    "10m, 600000",
    "1h, 3600000",
    "' 2s ', 2000"
  })
  void readsTheChartsDurations(String text, long millis) {
    assertEquals(Duration.ofMillis(millis), converter.convert(text));
  }

  @ParameterizedTest(name = "if {0}, expect a refusal")
  @ValueSource(strings = {"", "15", "m", "1h30m", "1.5h", "-1s", "15 m", "15M", "1d", "PT15M"})
  void refusesAnythingElseSayingWhatWouldDo(String text) {
    TypeConversionException refused =
        assertThrows(TypeConversionException.class, () -> converter.convert(text));
    assertTrue(refused.getMessage().contains("ms, s, m or h"), refused.getMessage());
  }
}
