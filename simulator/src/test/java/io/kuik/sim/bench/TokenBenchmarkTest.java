package io.kuik.sim.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The token bench on one namespace: what its table claims must hold. With an outage shorter than
 * the margin kuik loses nothing; with a longer one it loses less than the cron job, whose token
 * expires in the Secrets it wrote.
 */
class TokenBenchmarkTest {

  @Test
  void kuikLosesNothingThroughAnOutageShorterThanTheMarginAndLessThanTheCronJobThroughALongerOne() {
    TokenBenchmark.Outage shorter = TokenBenchmark.OUTAGES.get(1);
    TokenBenchmark.Outage longer = TokenBenchmark.OUTAGES.get(2);
    TokenBenchmark.Result kuikShort = TokenBenchmark.kuik(1, shorter);
    TokenBenchmark.Result kuikLong = TokenBenchmark.kuik(1, longer);
    TokenBenchmark.Result cronLong = TokenBenchmark.cron(1, longer);

    assertEquals(0, kuikShort.refused(), "" + kuikShort);
    assertEquals(0, kuikShort.namespaceMinutes(), "" + kuikShort);
    assertEquals(0, kuikLong.expired(), "" + kuikLong);
    assertTrue(kuikLong.refused() < cronLong.refused(), kuikLong + " against " + cronLong);
    assertTrue(
        kuikLong.namespaceMinutes() < cronLong.namespaceMinutes(),
        kuikLong + " against " + cronLong);
    assertTrue(cronLong.expired() > 0, "the cron job's Secrets held an expired token: " + cronLong);
  }
}
