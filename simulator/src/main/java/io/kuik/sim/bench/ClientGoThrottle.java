package io.kuik.sim.bench;

import io.kuik.sim.time.EventLoop;
import java.time.Duration;
import java.time.Instant;

/**
 * client-go's default client-side rate limit on the virtual clock: a token bucket of {@value #QPS}
 * requests a second and a burst of {@value #BURST}, which every request of a clientset waits on
 * (k8s.io/client-go rest/config.go {@code DefaultQPS}, {@code DefaultBurst}; rest/request.go {@code
 * tryThrottle}). A Go program that sets neither {@code QPS} nor {@code Burst} on its {@code
 * rest.Config} runs with these, as both baselines do.
 */
final class ClientGoThrottle {

  static final double QPS = 5;
  static final int BURST = 10;

  private final EventLoop loop;
  private double tokens = BURST;
  private Instant refilled;

  ClientGoThrottle(EventLoop loop) {
    this.loop = loop;
    this.refilled = loop.now();
  }

  /**
   * Takes one token and says how long the caller must wait before its request goes out (zero when a
   * token was there), as {@code Wait} on client-go's limiter does.
   */
  Duration reserve() {
    Instant now = loop.now();
    tokens = Math.min(BURST, tokens + Duration.between(refilled, now).toNanos() / 1e9 * QPS);
    refilled = now;
    tokens -= 1;
    if (tokens >= 0) {
      return Duration.ZERO;
    }
    return Duration.ofNanos((long) Math.ceil(-tokens / QPS * 1e9));
  }

  /** Runs {@code request} once a token allows it. */
  void send(String label, Runnable request) {
    loop.schedule(reserve(), label, request);
  }
}
