package io.kuik.kube;

/**
 * The client-side rate limit of the syncer's writes (applies and Events): {@code qps} tokens a
 * second, at most {@code burst} saved up. A resync of a large cluster applies every pair at once;
 * this keeps it from flooding the API server (the {@code --api-qps} and {@code --api-burst} flags).
 *
 * <p>{@link #acquire()} blocks until a token is free; the core's thread may block here, since it
 * has nothing better to do than wait for the next write.
 */
final class TokenBucket {

  /** Time as the bucket reads it and waits for it; the system's, or a test's. */
  interface Ticker {
    long nanoTime();

    void sleepNanos(long nanos) throws InterruptedException;

    Ticker SYSTEM =
        new Ticker() {
          @Override
          public long nanoTime() {
            return System.nanoTime();
          }

          @Override
          public void sleepNanos(long nanos) throws InterruptedException {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
          }
        };
  }

  private final double perNano;
  private final int burst;
  private final Ticker ticker;
  private double tokens;
  private long refilledAt;

  TokenBucket(double qps, int burst, Ticker ticker) {
    if (!(qps > 0) || Double.isInfinite(qps)) {
      throw new IllegalArgumentException("qps must be a positive number, got " + qps);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("burst must be at least 1, got " + burst);
    }
    this.perNano = qps / 1e9;
    this.burst = burst;
    this.ticker = ticker;
    this.tokens = burst;
    this.refilledAt = ticker.nanoTime();
  }

  synchronized void acquire() throws InterruptedException {
    refill();
    while (tokens < 1) {
      ticker.sleepNanos((long) Math.ceil((1 - tokens) / perNano));
      refill();
    }
    tokens -= 1;
  }

  private void refill() {
    long now = ticker.nanoTime();
    tokens = Math.min(burst, tokens + (now - refilledAt) * perNano);
    refilledAt = now;
  }
}
