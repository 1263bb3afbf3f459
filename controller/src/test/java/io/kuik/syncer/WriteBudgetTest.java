package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The core's token bucket alone, in the core's time. */
class WriteBudgetTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void startsWithTheBurstAndRefillsAtTheRate() {
    WriteBudget budget = new WriteBudget(2, 3);
    for (int i = 0; i < 3; i++) {
      assertTrue(budget.hasToken(T0));
      budget.take(T0);
    }
    assertFalse(budget.hasToken(T0));
    assertEquals(T0.plusMillis(500), budget.nextTokenAt(T0), "one token per half second");
    assertFalse(budget.hasToken(T0.plusMillis(499)));
    assertTrue(budget.hasToken(T0.plusMillis(500)));
  }

  @Test
  void neverSavesMoreThanTheBurst() {
    WriteBudget budget = new WriteBudget(10, 2);
    Instant later = T0.plusSeconds(60);
    budget.take(later);
    budget.take(later);
    assertFalse(budget.hasToken(later));
    assertEquals(later.plusMillis(100), budget.nextTokenAt(later));
  }

  @Test
  void aTokenThereIsThereNow() {
    WriteBudget budget = new WriteBudget(1, 1);
    assertEquals(T0, budget.nextTokenAt(T0));
  }

  @Test
  void theNextTokenAccountsForWhatRefilledSinceTheLastTake() {
    WriteBudget budget = new WriteBudget(1, 1);
    budget.take(T0);
    // 0.25 s later a quarter of a token is there: the next whole one is 0.75 s away.
    assertEquals(T0.plusSeconds(1), budget.nextTokenAt(T0.plusMillis(250)));
    budget.take(T0.plusSeconds(1));
    assertEquals(T0.plusSeconds(2), budget.nextTokenAt(T0.plusSeconds(1)));
  }

  @Test
  void anEventTakenWithoutATokenPutsTheBucketInDebt() {
    WriteBudget budget = new WriteBudget(1, 1);
    budget.take(T0);
    budget.take(T0);
    assertEquals(T0.plusSeconds(2), budget.nextTokenAt(T0));
  }
}
