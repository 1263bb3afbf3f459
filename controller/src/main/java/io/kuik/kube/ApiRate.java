package io.kuik.kube;

/**
 * The client-side rate limit of the syncer's writes: {@code qps} requests a second on average, up
 * to {@code burst} at once.
 */
public record ApiRate(double qps, int burst) {
  public ApiRate {
    if (!(qps > 0) || Double.isInfinite(qps)) {
      throw new IllegalArgumentException(
          "the API rate (qps) must be a positive number, got " + qps);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("the API burst must be at least 1, got " + burst);
    }
  }
}
