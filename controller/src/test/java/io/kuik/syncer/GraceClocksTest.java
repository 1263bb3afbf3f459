package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GraceClocksTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /** The documented grace, the test's own: never the product's default. */
  static final Duration GRACE = Duration.ofMinutes(15);

  static final Set<String> ALLOWED = Set.of("quay.io/acme", "quay.io/other");

  private GraceClocks clocks = GraceClocks.NONE;

  private Set<String> look(Set<String> neededNow, Set<String> allowed, Instant now) {
    clocks = clocks.look(neededNow, allowed, now, GRACE);
    return clocks.held();
  }

  @Test
  void keepsAnUnusedKeyUntilTheGraceEndsThenDropsIt() {
    look(Set.of("quay.io/acme"), ALLOWED, T0);
    Instant released = T0.plusSeconds(60);
    assertEquals(Set.of("quay.io/acme"), look(Set.of(), ALLOWED, released));
    assertEquals(Optional.of(released.plus(GRACE)), clocks.nextExpiry(GRACE));

    Instant justBefore = released.plus(GRACE).minusNanos(1);
    assertEquals(Set.of("quay.io/acme"), look(Set.of(), ALLOWED, justBefore));
    Instant atTheEnd = released.plus(GRACE);
    assertEquals(Set.of(), look(Set.of(), ALLOWED, atTheEnd));
    assertEquals(Optional.empty(), clocks.nextExpiry(GRACE));
    assertTrue(clocks.isEmpty());
  }

  @Test
  void aKeyNeededAgainDuringTheGraceRestartsItsClockWhenReleasedAgain() {
    look(Set.of("quay.io/acme"), ALLOWED, T0);
    look(Set.of(), ALLOWED, T0.plusSeconds(60));
    look(Set.of("quay.io/acme"), ALLOWED, T0.plusSeconds(600));
    assertEquals(Optional.empty(), clocks.nextExpiry(GRACE), "needed again: no clock runs");
    Instant releasedAgain = T0.plusSeconds(700);
    look(Set.of(), ALLOWED, releasedAgain);
    Instant laterThanTheFirstGrace = T0.plusSeconds(60).plus(GRACE).plusSeconds(60);
    assertEquals(Set.of("quay.io/acme"), look(Set.of(), ALLOWED, laterThanTheFirstGrace));
    assertEquals(Optional.of(releasedAgain.plus(GRACE)), clocks.nextExpiry(GRACE));
  }

  @Test
  void aKeyNoLongerAllowedLeavesAtOnce() {
    look(Set.of("quay.io/acme", "quay.io/other"), ALLOWED, T0);
    Set<String> kept = look(Set.of("quay.io/other"), Set.of("quay.io/other"), T0.plusSeconds(1));
    assertEquals(Set.of("quay.io/other"), kept);
  }

  @Test
  void aKeyNeverNeededHasNoGrace() {
    assertEquals(Set.of(), look(Set.of(), ALLOWED, T0));
    assertEquals(Optional.empty(), clocks.nextExpiry(GRACE));
    assertTrue(clocks.isEmpty());
  }

  @Test
  void theNextExpiryIsTheEarliestOfTheReleasedKeys() {
    look(Set.of("quay.io/acme", "quay.io/other"), ALLOWED, T0);
    look(Set.of("quay.io/other"), ALLOWED, T0.plusSeconds(10));
    look(Set.of(), ALLOWED, T0.plusSeconds(20));
    assertEquals(Optional.of(T0.plusSeconds(10).plus(GRACE)), clocks.nextExpiry(GRACE));
  }

  @Test
  void aLookLeavesTheClocksItWasGivenUnchanged() {
    GraceClocks before = GraceClocks.NONE.look(Set.of("quay.io/acme"), ALLOWED, T0, GRACE);
    GraceClocks after = before.look(Set.of(), ALLOWED, T0.plusSeconds(1), GRACE);
    assertEquals(Set.of("quay.io/acme"), before.needed());
    assertEquals(Set.of(), after.needed());
    assertEquals(Set.of("quay.io/acme"), after.releasedSince().keySet());
  }

  @Test
  void aKeyNeededOnlyBetweenTwoLooksStillGetsItsGrace() {
    clocks = clocks.sawNeeded("quay.io/acme", T0);
    assertEquals(Set.of("quay.io/acme"), look(Set.of(), ALLOWED, T0.plusMillis(500)));
    assertEquals(Optional.of(T0.plus(GRACE)), clocks.nextExpiry(GRACE));
  }

  @Test
  void aPodSeenNeedingAKeyLaterPushesItsGraceLater() {
    clocks = clocks.sawNeeded("quay.io/acme", T0.plusSeconds(30)).sawNeeded("quay.io/acme", T0);
    assertEquals(Optional.of(T0.plusSeconds(30).plus(GRACE)), clocks.nextExpiry(GRACE));
  }
}
