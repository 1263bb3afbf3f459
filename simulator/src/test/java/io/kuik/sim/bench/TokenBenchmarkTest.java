package io.kuik.sim.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The token bench on one namespace (and those it creates on its way): what its table claims must
 * hold. With an outage shorter than the margin kuik loses nothing, and the cron job leaves each new
 * namespace without a credential until its next run; with a longer one kuik loses less than the
 * cron job, whose token expires in the Secrets it wrote.
 */
class TokenBenchmarkTest {

  @Test
  void kuikLosesNothingThroughAnOutageShorterThanTheMarginAndLessThanTheCronJobThroughALongerOne() {
    TokenBenchmark.Outage shorter = TokenBenchmark.OUTAGES.get(1);
    TokenBenchmark.Outage longer = TokenBenchmark.OUTAGES.get(2);
    TokenBenchmark.Result kuikShort = TokenBenchmark.kuik(1, shorter);
    TokenBenchmark.Result cronShort = TokenBenchmark.cron(1, shorter);
    TokenBenchmark.Result kuikLong = TokenBenchmark.kuik(1, longer);
    TokenBenchmark.Result cronLong = TokenBenchmark.cron(1, longer);

    assertEquals(0, kuikShort.refused(), "" + kuikShort);
    assertEquals(0, kuikShort.namespaceMinutes(), "" + kuikShort);
    assertTrue(cronShort.refused() > 0, "new namespaces wait for the next run: " + cronShort);
    assertTrue(cronShort.namespaceMinutes() > 0, "" + cronShort);
    assertEquals(0, kuikLong.expired(), "" + kuikLong);
    assertTrue(kuikLong.refused() < cronLong.refused(), kuikLong + " against " + cronLong);
    assertTrue(
        kuikLong.namespaceMinutes() < cronLong.namespaceMinutes(),
        kuikLong + " against " + cronLong);
    assertTrue(cronLong.expired() > 0, "the cron job's Secrets held an expired token: " + cronLong);
  }
}
