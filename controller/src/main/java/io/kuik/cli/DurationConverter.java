package io.kuik.cli;

import io.kuik.model.Durations;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a duration as the Helm chart writes one: a whole number and one unit, {@code ms}, {@code
 * s}, {@code m} or {@code h} ({@code 500ms}, {@code 15m}). Anything else is refused with the form
 * that would be accepted, so a typo fails at start instead of running with a surprise.
 */
public final class DurationConverter implements ITypeConverter<Duration> {

  @Override
  public Duration convert(String value) {
    return Durations.parse(value)
        .orElseThrow(
            () ->
                new TypeConversionException(
                    "'"
                        + value
                        + "' is not a duration: write a whole number and one unit, ms, s, m or h"
                        + " (e.g. 500ms, 30s, 15m, 1h)"));
  }
}
