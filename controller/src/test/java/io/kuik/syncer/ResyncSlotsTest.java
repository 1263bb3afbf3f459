package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ResyncSlotsTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final Duration WINDOW = Duration.ofMinutes(10);
  static final Pair PAIR = new Pair(new ResourceId(RoutingKind.IMAGE_MIRROR, "m"), "ns-1");

  private final ResyncSlots slots = new ResyncSlots(WINDOW, T0);
  private final Instant slot = T0.plus(ResyncSlots.offsetWithin(PAIR, WINDOW));

  @Test
  void theOffsetOfAPairIsFixedAndWithinTheWindow() {
    Duration offset = ResyncSlots.offsetWithin(PAIR, WINDOW);
    assertEquals(offset, ResyncSlots.offsetWithin(PAIR, WINDOW));
    assertTrue(!offset.isNegative() && offset.compareTo(WINDOW) < 0);
    assertEquals(Duration.ZERO, ResyncSlots.offsetWithin(PAIR, Duration.ZERO));
    assertTrue(
        !ResyncSlots.offsetWithin(PAIR, WINDOW)
            .equals(ResyncSlots.offsetWithin(new Pair(PAIR.resource(), "ns-2"), WINDOW)),
        "pairs spread over the window");
  }

  @Test
  void tenThousandPairsSpreadEvenlyOverTheWindow() {
    int[] tenths = new int[10];
    for (int i = 0; i < 10_000; i++) {
      Pair pair = new Pair(PAIR.resource(), "ns-" + i);
      Duration offset = ResyncSlots.offsetWithin(pair, WINDOW);
      tenths[(int) (offset.toNanos() * 10 / WINDOW.toNanos())]++;
    }
    for (int tenth = 0; tenth < 10; tenth++) {
      assertTrue(
          tenths[tenth] > 800 && tenths[tenth] < 1_200,
          "tenth " + tenth + " of the window holds " + tenths[tenth] + " of 10,000 pairs");
    }
  }

  @Test
  void aPairsSlotsAreOneWindowApart() {
    assertEquals(slot, slots.slotAtOrAfter(PAIR, T0));
    assertEquals(slot, slots.slotAtOrAfter(PAIR, slot));
    assertEquals(slot.plus(WINDOW), slots.slotAtOrAfter(PAIR, slot.plusNanos(1)));
    assertEquals(
        slot.plus(WINDOW.multipliedBy(3)),
        slots.slotAtOrAfter(PAIR, slot.plus(WINDOW.multipliedBy(3))));
    assertEquals(
        slot.plus(WINDOW.multipliedBy(4)),
        slots.slotAtOrAfter(PAIR, slot.plus(WINDOW.multipliedBy(3)).plusSeconds(1)));
  }

  @Test
  void aResyncOwesThePairsNextSlotAndKeepsAnEarlierDebt() {
    assertEquals(slot, slots.owe(PAIR, T0));
    assertEquals(slot, slots.owe(PAIR, slot.plusSeconds(1)), "the earlier debt stays");
    assertFalse(slots.isOwed(PAIR, slot.minusNanos(1)));
    assertTrue(slots.isOwed(PAIR, slot));
  }

  @Test
  void anApplyPaysTheDebtAndOwesTheNextSlotAfterIt() {
    slots.owe(PAIR, T0);
    assertEquals(Optional.of(slot.plus(WINDOW)), slots.settle(PAIR, slot, true));
    Instant early = slot.plus(WINDOW).minusSeconds(1);
    assertEquals(
        Optional.of(slot.plus(WINDOW)),
        slots.settle(PAIR, early, true),
        "an apply before the slot does not move it: the next one is less than a window away");
  }

  @Test
  void aReconcileWithoutAnApplyKeepsADebtToComeAndSettlesOneDue() {
    slots.owe(PAIR, T0);
    assertEquals(Optional.of(slot), slots.settle(PAIR, slot.minusSeconds(1), false));
    assertEquals(Optional.empty(), slots.settle(PAIR, slot, false));
    assertFalse(slots.isOwed(PAIR, slot.plus(WINDOW.multipliedBy(2))));
  }

  @Test
  void withoutAWindowAResyncIsOwedAtOnceAndAnyApplyPaysIt() {
    ResyncSlots none = new ResyncSlots(Duration.ZERO, T0);
    Instant at = T0.plusSeconds(5);
    assertEquals(at, none.owe(PAIR, at));
    assertEquals(Optional.of(at), none.settle(PAIR, at.minusMillis(100), false));
    assertEquals(Optional.empty(), none.settle(PAIR, at.minusMillis(100), true));
    assertEquals(Optional.empty(), none.settle(PAIR, at, true), "nothing owed, nothing to come");
  }

  @Test
  void aForgottenPairOwesNothing() {
    slots.owe(PAIR, T0);
    slots.forget(PAIR);
    assertFalse(slots.isOwed(PAIR, slot));
    assertEquals(Optional.empty(), slots.settle(PAIR, slot, false));
  }
}
