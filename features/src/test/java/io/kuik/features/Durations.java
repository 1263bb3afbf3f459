package io.kuik.features;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the durations the features write: "2 seconds", "14 minutes 59 seconds", "1 hour". */
final class Durations {

  private static final Pattern PART =
      Pattern.compile("(\\d+)\\s+(millisecond|second|minute|hour)s?");

  private Durations() {}

  static Duration parse(String text) {
    Matcher m = PART.matcher(text);
    Duration total = Duration.ZERO;
    int end = 0;
    while (m.find()) {
      if (!text.substring(end, m.start()).isBlank()) {
        break;
      }
      long n = Long.parseLong(m.group(1));
      total =
          total.plus(
              switch (m.group(2)) {
                case "millisecond" -> Duration.ofMillis(n);
                case "second" -> Duration.ofSeconds(n);
                case "minute" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
              });
      end = m.end();
    }
    if (end == 0 || !text.substring(end).isBlank()) {
      throw new IllegalArgumentException("not a duration: \"" + text + "\"");
    }
    return total;
  }
}
