package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GraceClocksTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final Pair PAIR = new Pair(new ResourceId(RoutingKind.IMAGE_MIRROR, "prod"), "team-a");
  static final Set<String> ALLOWED = Set.of("quay.io/acme", "quay.io/other");

  private final GraceClocks clocks = new GraceClocks(Duration.ofMinutes(15));

  @Test
  void keepsAnUnusedKeyUntilTheGraceEndsThenDropsIt() {
    clocks.keep(PAIR, Set.of("quay.io/acme"), ALLOWED, T0);
    Instant released = T0.plusSeconds(60);
    assertEquals(Set.of("quay.io/acme"), clocks.keep(PAIR, Set.of(), ALLOWED, released));
    assertEquals(Optional.of(released.plus(Duration.ofMinutes(15))), clocks.nextExpiry(PAIR));

    Instant justBefore = released.plus(Duration.ofMinutes(15)).minusSeconds(1);
    assertEquals(Set.of("quay.io/acme"), clocks.keep(PAIR, Set.of(), ALLOWED, justBefore));
    Instant atTheEnd = released.plus(Duration.ofMinutes(15));
    assertEquals(Set.of(), clocks.keep(PAIR, Set.of(), ALLOWED, atTheEnd));
    assertEquals(Optional.empty(), clocks.nextExpiry(PAIR));
  }

  @Test
  void aKeyNeededAgainDuringTheGraceRestartsItsClockWhenReleasedAgain() {
    clocks.keep(PAIR, Set.of("quay.io/acme"), ALLOWED, T0);
    clocks.keep(PAIR, Set.of(), ALLOWED, T0.plusSeconds(60));
    clocks.keep(PAIR, Set.of("quay.io/acme"), ALLOWED, T0.plusSeconds(600));
    Instant releasedAgain = T0.plusSeconds(700);
    clocks.keep(PAIR, Set.of(), ALLOWED, releasedAgain);
    Instant laterThanTheFirstGrace = T0.plusSeconds(60).plus(Duration.ofMinutes(16));
    assertEquals(
        Set.of("quay.io/acme"), clocks.keep(PAIR, Set.of(), ALLOWED, laterThanTheFirstGrace));
  }

  @Test
  void aKeyNoLongerAllowedLeavesAtOnce() {
    clocks.keep(PAIR, Set.of("quay.io/acme", "quay.io/other"), ALLOWED, T0);
    Set<String> kept =
        clocks.keep(PAIR, Set.of("quay.io/other"), Set.of("quay.io/other"), T0.plusSeconds(1));
    assertEquals(Set.of("quay.io/other"), kept);
  }

  @Test
  void aKeyNeverNeededHasNoGrace() {
    assertEquals(Set.of(), clocks.keep(PAIR, Set.of(), ALLOWED, T0));
    assertEquals(Optional.empty(), clocks.nextExpiry(PAIR));
  }

  @Test
  void forgettingAPairLosesItsClocksAsARestartWould() {
    clocks.keep(PAIR, Set.of("quay.io/acme"), ALLOWED, T0);
    clocks.forget(PAIR);
    assertEquals(Set.of(), clocks.keep(PAIR, Set.of(), ALLOWED, T0.plusSeconds(1)));
  }

  @Test
  void aKeyNeededOnlyBetweenTwoLooksStillGetsItsGrace() {
    clocks.sawNeeded(PAIR, "quay.io/acme", T0);
    assertEquals(Set.of("quay.io/acme"), clocks.keep(PAIR, Set.of(), ALLOWED, T0.plusMillis(500)));
    assertEquals(Optional.of(T0.plus(Duration.ofMinutes(15))), clocks.nextExpiry(PAIR));
  }
}
