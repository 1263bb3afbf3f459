package io.kuik.load;

import java.time.Duration;
import java.util.Arrays;

/**
 * How each admission of one step ended, and how late the generator sent it. Each index is written
 * once, by the thread that completed it; {@link #summary()} is read after the step's latch.
 */
final class StepSamples {

  enum Outcome {
    /** No answer recorded: counted as a timeout. */
    PENDING,
    /** HTTP 200 with a patch: the pod's images were rewritten. */
    ROUTED,
    /** HTTP 200 without a patch: admitted unchanged. */
    UNCHANGED,
    /** No answer within the timeout: the API server admits the pod unchanged. */
    TIMEOUT,
    /** A closed or refused connection, or a status other than 200: admitted unchanged. */
    ERROR
  }

  /**
   * One step in numbers.
   *
   * @param sent admissions sent
   * @param held answered with 200 within the timeout
   * @param routed of those, answered with a patch
   * @param p50 median latency over every admission sent, a timeout counted at the timeout
   * @param p99 99th percentile, likewise
   * @param max the highest
   * @param lateness the generator's worst delay in sending after a due time
   */
  record Summary(
      int sent,
      int held,
      int routed,
      int timeouts,
      int errors,
      Duration p50,
      Duration p99,
      Duration max,
      Duration lateness,
      String firstError) {

    /** The share of sent admissions answered in time. */
    double heldShare() {
      return sent == 0 ? 0 : (double) held / sent;
    }

    double routedShare() {
      return sent == 0 ? 0 : (double) routed / sent;
    }
  }

  private final long[] latencies;
  private final Outcome[] outcomes;
  private final long timeoutNanos;
  private long worstLateness;
  private volatile String firstError;

  StepSamples(int count, Duration timeout) {
    latencies = new long[count];
    outcomes = new Outcome[count];
    Arrays.fill(outcomes, Outcome.PENDING);
    timeoutNanos = timeout.toNanos();
  }

  /** Called by the generator's thread only. */
  void sent(int index, long latenessNanos) {
    worstLateness = Math.max(worstLateness, latenessNanos);
  }

  void answered(int index, long latencyNanos, boolean patched) {
    record(index, latencyNanos, patched ? Outcome.ROUTED : Outcome.UNCHANGED);
  }

  void timedOut(int index, long latencyNanos) {
    record(index, latencyNanos, Outcome.TIMEOUT);
  }

  void failed(int index, long latencyNanos) {
    record(index, latencyNanos, Outcome.ERROR);
  }

  void firstError(String error) {
    firstError = error;
  }

  Summary summary() {
    int held = 0;
    int routed = 0;
    int timeouts = 0;
    int errors = 0;
    long[] sorted = new long[latencies.length];
    for (int i = 0; i < latencies.length; i++) {
      Outcome outcome = outcomes[i];
      sorted[i] = outcome == Outcome.PENDING ? timeoutNanos : latencies[i];
      switch (outcome) {
        case ROUTED:
          routed++;
          held++;
          break;
        case UNCHANGED:
          held++;
          break;
        case ERROR:
          errors++;
          break;
        default:
          timeouts++;
      }
    }
    Arrays.sort(sorted);
    return new Summary(
        latencies.length,
        held,
        routed,
        timeouts,
        errors,
        Duration.ofNanos(percentile(sorted, 0.50)),
        Duration.ofNanos(percentile(sorted, 0.99)),
        Duration.ofNanos(sorted.length == 0 ? 0 : sorted[sorted.length - 1]),
        Duration.ofNanos(worstLateness),
        firstError);
  }

  /** The nearest-rank percentile of ascending {@code sorted}: the smallest value with q below. */
  static long percentile(long[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  private void record(int index, long latencyNanos, Outcome outcome) {
    latencies[index] = latencyNanos;
    outcomes[index] = outcome;
  }
}
