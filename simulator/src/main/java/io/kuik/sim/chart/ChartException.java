package io.kuik.sim.chart;

/**
 * The chart could not be found, rendered or parsed. The message names the file and, where it helps,
 * the line, and says what to do.
 */
public final class ChartException extends RuntimeException {

  public ChartException(String message) {
    super(message);
  }

  public ChartException(String message, Throwable cause) {
    super(message, cause);
  }
}
