package io.kuik.model;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A duration written as Go writes one ({@code time.ParseDuration}, the JSON form of Kubernetes'
 * {@code metav1.Duration}): a sequence of decimal numbers, each with a unit, {@code 12h}, {@code
 * 1h30m}, {@code 1.5s}, {@code 300ms}; units {@code ns}, {@code us} (or {@code µs}), {@code ms},
 * {@code s}, {@code m}, {@code h}; a sign in front; {@code 0} alone
 * (https://pkg.go.dev/time#ParseDuration). The credential provider plugins' {@code cacheDuration}
 * and the configuration's {@code defaultCacheDuration} are written so.
 */
public final class GoDuration {

  private static final Pattern PART =
      Pattern.compile("([0-9]*(?:\\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h)");

  private static final Map<String, Long> NANOS =
      Map.of(
          "ns", 1L,
          "us", 1_000L,
          "µs", 1_000L,
          "μs", 1_000L,
          "ms", 1_000_000L,
          "s", 1_000_000_000L,
          "m", 60_000_000_000L,
          "h", 3_600_000_000_000L);

  private GoDuration() {}

  /**
   * @throws IllegalArgumentException when {@code text} is not a Go duration; the message quotes it
   *     (a duration is never a secret)
   */
  public static Duration parse(String text) {
    if (text == null || text.isEmpty()) {
      throw new IllegalArgumentException("an empty duration");
    }
    String rest = text;
    boolean negative = false;
    if (rest.startsWith("-") || rest.startsWith("+")) {
      negative = rest.startsWith("-");
      rest = rest.substring(1);
    }
    if (rest.equals("0")) {
      return Duration.ZERO;
    }
    if (rest.isEmpty()) {
      throw invalid(text);
    }
    Matcher part = PART.matcher(rest);
    BigDecimal nanos = BigDecimal.ZERO;
    int at = 0;
    while (at < rest.length()) {
      if (!part.find(at) || part.start() != at) {
        throw invalid(text);
      }
      String number = part.group(1);
      if (number.isEmpty() || number.equals(".")) {
        throw invalid(text);
      }
      nanos =
          nanos.add(new BigDecimal(number).multiply(BigDecimal.valueOf(NANOS.get(part.group(2)))));
      at = part.end();
    }
    if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      throw new IllegalArgumentException("duration \"" + text + "\" is longer than Go allows");
    }
    Duration value = Duration.ofNanos(nanos.longValue());
    return negative ? value.negated() : value;
  }

  private static IllegalArgumentException invalid(String text) {
    return new IllegalArgumentException(
        "\"" + text + "\" is not a duration: write it as Go does, e.g. 12h, 1h30m, 90s or 500ms");
  }
}
