package io.kuik.model;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as every kuik text writes and reads them: log lines, flags and their defaults in {@code
 * --help}, the chart's values, selftest and explain: {@code 15m}, {@code 1m4s}, {@code 1.5s},
 * {@code 500ms} everywhere, never Java's {@code PT15M} nor {@code 15m0s}. A duration a flag takes
 * as its default prints as that flag is written.
 */
public final class Durations {

  private static final Pattern FORM = Pattern.compile("([0-9]{1,9})(ms|s|m|h)");

  private Durations() {}

  /**
   * {@code 1h2m3s}, {@code 15m}, {@code 1m4s}, {@code 1.5s}, {@code 500ms}, {@code 0s}: the largest
   * units first, a unit left out when it is zero and nothing smaller follows it.
   */
  public static String text(Duration duration) {
    if (duration.isZero()) {
      return "0s";
    }
    StringBuilder out = new StringBuilder();
    Duration rest = duration;
    if (rest.isNegative()) {
      out.append('-');
      rest = rest.negated();
    }
    if (rest.compareTo(Duration.ofSeconds(1)) < 0) {
      long nanos = rest.toNanos();
      return out.append(nanos % 1_000_000 == 0 ? nanos / 1_000_000 + "ms" : nanos / 1000 + "µs")
          .toString();
    }
    long hours = rest.toHours();
    int minutes = rest.toMinutesPart();
    int seconds = rest.toSecondsPart();
    int millis = rest.toMillisPart();
    if (hours > 0) {
      out.append(hours).append('h');
    }
    if (minutes > 0) {
      out.append(minutes).append('m');
    }
    if (seconds > 0 || millis > 0) {
      out.append(seconds);
      if (millis > 0) {
        out.append('.').append(String.format("%03d", millis).replaceAll("0+$", ""));
      }
      out.append('s');
    }
    return out.toString();
  }

  /**
   * A duration as the chart and the flags write one: a whole number and one unit, {@code ms},
   * {@code s}, {@code m} or {@code h} ({@code 500ms}, {@code 15m}); empty for anything else.
   */
  public static Optional<Duration> parse(String value) {
    Matcher matcher = FORM.matcher(value == null ? "" : value.trim());
    if (!matcher.matches()) {
      return Optional.empty();
    }
    long amount = Long.parseLong(matcher.group(1));
    switch (matcher.group(2)) {
      case "ms":
        return Optional.of(Duration.ofMillis(amount));
      case "s":
        return Optional.of(Duration.ofSeconds(amount));
      case "m":
        return Optional.of(Duration.ofMinutes(amount));
      default:
        return Optional.of(Duration.ofHours(amount));
    }
  }
}
