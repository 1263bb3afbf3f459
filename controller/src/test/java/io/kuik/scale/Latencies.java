package io.kuik.scale;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Times from a new rewritten pod's creation to its Secret's first apply, in ms; a probe whose
 * Secret never came within the wait counts as {@link Long#MAX_VALUE} (shown as {@code >wait}).
 */
record Latencies(long[] sortedMillis, long waitMillis) {

  static Latencies of(List<Long> millis, long waitMillis) {
    long[] sorted = millis.stream().mapToLong(Long::longValue).sorted().toArray();
    return new Latencies(sorted, waitMillis);
  }

  static Latencies none() {
    return new Latencies(new long[0], 0);
  }

  /**
   * The nearest-rank percentile: the smallest sample with at least {@code q} of them at or below.
   */
  static long percentile(long[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
  }

  int count() {
    return sortedMillis.length;
  }

  long missing() {
    return Arrays.stream(sortedMillis).filter(m -> m == Long.MAX_VALUE).count();
  }

  /**
   * {@code p50/p99} in seconds with one decimal, e.g. {@code 0.6/1.9}; {@code n/a} without samples.
   */
  String cell() {
    if (sortedMillis.length == 0) {
      return "n/a";
    }
    return seconds(percentile(sortedMillis, 0.50)) + "/" + seconds(percentile(sortedMillis, 0.99));
  }

  private String seconds(long millis) {
    if (millis == Long.MAX_VALUE) {
      return ">" + waitMillis / 1000;
    }
    return String.format(Locale.ROOT, "%.1f", millis / 1000.0);
  }
}
