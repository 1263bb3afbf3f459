package io.kuik.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a duration as the Helm chart writes one: a whole number and one unit, {@code ms}, {@code
 * s}, {@code m} or {@code h} ({@code 500ms}, {@code 15m}). Anything else is refused with the form
 * that would be accepted, so a typo fails at start instead of running with a surprise.
 */
public final class DurationConverter implements ITypeConverter<Duration> {

  private static final Pattern FORM = Pattern.compile("([0-9]{1,9})(ms|s|m|h)");

  @Override
  public Duration convert(String value) {
    Matcher matcher = FORM.matcher(value == null ? "" : value.trim());
    if (!matcher.matches()) {
      throw new TypeConversionException(
          "'"
              + value
              + "' is not a duration: write a whole number and one unit, ms, s, m or h"
              + " (e.g. 500ms, 30s, 15m, 1h)");
    }
    long amount = Long.parseLong(matcher.group(1));
    switch (matcher.group(2)) {
      case "ms":
        return Duration.ofMillis(amount);
      case "s":
        return Duration.ofSeconds(amount);
      case "m":
        return Duration.ofMinutes(amount);
      default:
        return Duration.ofHours(amount);
    }
  }
}
