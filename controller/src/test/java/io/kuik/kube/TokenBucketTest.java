package io.kuik.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenBucketTest {

  /** A clock that only moves when the bucket sleeps, or when the test says so. */
  private static final class FakeTicker implements TokenBucket.Ticker {
    long now;
    final List<Long> sleeps = new ArrayList<>();

    @Override
    public long nanoTime() {
      return now;
    }

    @Override
    public void sleepNanos(long nanos) {
      sleeps.add(nanos);
      now += nanos;
    }
  }

  private final FakeTicker ticker = new FakeTicker();

  @Test
  void aFullBucketLetsTheBurstThroughWithoutWaiting() throws InterruptedException {
    TokenBucket bucket = new TokenBucket(10, 3, ticker);

    for (int i = 0; i < 3; i++) {
      bucket.acquire();
    }

    assertEquals(List.of(), ticker.sleeps);
  }

  @Test
  void pastTheBurstEachRequestWaitsOneOverQps() throws InterruptedException {
    TokenBucket bucket = new TokenBucket(10, 2, ticker);
    bucket.acquire();
    bucket.acquire();

    bucket.acquire();
    bucket.acquire();

    assertEquals(List.of(100_000_000L, 100_000_000L), ticker.sleeps);
  }

  @Test
  void idleTimeRefillsUpToTheBurstOnly() throws InterruptedException {
    TokenBucket bucket = new TokenBucket(1, 2, ticker);
    bucket.acquire();
    bucket.acquire();
    ticker.now += 60_000_000_000L; // a minute idle: 60 tokens earned, 2 kept

    bucket.acquire();
    bucket.acquire();
    bucket.acquire();

    assertEquals(List.of(1_000_000_000L), ticker.sleeps);
  }

  @Test
  void refusesRatesThatCannotLimit() {
    assertThrows(IllegalArgumentException.class, () -> new TokenBucket(0, 1, ticker));
    assertThrows(IllegalArgumentException.class, () -> new TokenBucket(5, 0, ticker));
  }
}
