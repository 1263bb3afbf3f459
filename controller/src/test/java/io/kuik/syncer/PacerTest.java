package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The pacer alone (docs/architecture.md#pacing): the lane order, the one write budget and the
 * resync's share of it, the Events' debt, the resync's ticks and the one timer the core waits for.
 */
class PacerTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");

  private static Pair pair(String namespace) {
    return new Pair(ACME, namespace);
  }

  private static Pacer started(SyncerSettings settings) {
    Pacer pacer = new Pacer(settings);
    pacer.start(T0);
    return pacer;
  }

  private static SyncerSettings settings(double qps, int burst, double share) {
    return SyncerHarness.noResync().withWriteLimit(qps, burst).withResyncShare(share);
  }

  private static List<String> drain(Pacer pacer, Instant now) {
    List<String> taken = new ArrayList<>();
    for (Optional<WorkQueue.Item> item = pacer.next(now);
        item.isPresent();
        item = pacer.next(now)) {
      taken.add(item.get().lane().label() + " " + item.get().pair().namespace());
    }
    return taken;
  }

  @Test
  void eventWorkGoesFirstThenDueResyncSlotsThenTheStartsPass() {
    Pacer pacer = started(settings(20, 50, 0.5));
    pacer.enqueue(pair("a"), T0, Lane.START);
    pacer.enqueue(pair("b"), T0, Lane.RESYNC);
    pacer.enqueue(pair("c"), T0.plusMillis(1), Lane.EVENT);
    pacer.enqueue(pair("d"), T0.plusMillis(2), Lane.START);

    assertEquals(
        List.of("event c", "resync b", "start a", "start d"), drain(pacer, T0.plusMillis(2)));
  }

  @Test
  void theResyncLaneTakesOnlyItsShareOfTheBurstTheOthersTheRest() {
    Pacer pacer = started(settings(2, 4, 0.5)); // the resync: 1 write/s, a burst of 2
    for (String ns : List.of("r1", "r2", "r3")) {
      pacer.enqueue(pair(ns), T0, Lane.RESYNC);
    }
    pacer.enqueue(pair("s1"), T0, Lane.START);

    List<String> sent = new ArrayList<>();
    for (Optional<WorkQueue.Item> item = pacer.next(T0);
        item.isPresent() && pacer.mayApply(T0);
        item = pacer.next(T0)) {
      pacer.sent(item.get(), T0);
      pacer.answered(item.get().pair());
      sent.add(item.get().pair().namespace());
    }

    assertEquals(List.of("r1", "r2", "s1"), sent, "two of the resync's, then the start's");
    assertTrue(pacer.mayApply(T0), "one token of the main budget left");
    assertEquals(Optional.empty(), pacer.next(T0), "r3 waits for the share's next token");
    assertEquals("resync r3", drain(pacer, T0.plusSeconds(1)).get(0), "a second later it may go");
  }

  @Test
  void theBudgetGrantsExactlyTheBurstAtOnceThenOneWriteAPeriod() {
    Pacer pacer = started(settings(10, 3, 0.5));
    int granted = 0;
    while (pacer.takeToken(T0)) {
      granted++;
    }
    assertEquals(3, granted);
    assertFalse(pacer.takeToken(T0.plusMillis(99)));
    assertTrue(pacer.takeToken(T0.plusMillis(100)));
  }

  @Test
  void anEventPaysIntoDebtAndTheWritesAfterItWait() {
    Pacer pacer = started(settings(1, 1, 0.5));
    pacer.owe(T0);
    pacer.owe(T0);
    assertFalse(pacer.mayApply(T0.plusMillis(999)));
    assertFalse(pacer.mayApply(T0.plusMillis(1999)), "two Events: one token and a debt of one");
    assertTrue(pacer.mayApply(T0.plusSeconds(2)));
  }

  @Test
  void asManyAppliesFlyAsAllowedAndAPairNeverTwice() {
    Pacer pacer = started(settings(100, 100, 0.5).withMaxInFlight(2));
    for (String ns : List.of("a", "b", "c")) {
      pacer.enqueue(pair(ns), T0, Lane.EVENT);
    }
    pacer.sent(pacer.next(T0).orElseThrow(), T0);
    pacer.sent(pacer.next(T0).orElseThrow(), T0);
    assertFalse(pacer.mayApply(T0), "two in flight");
    pacer.enqueue(pair("a"), T0, Lane.EVENT);

    assertEquals(List.of("event c"), drain(pacer, T0), "a waits for its answer, parked");
    InFlight.Answer answer = pacer.answered(pair("a"));
    assertEquals(pair("a"), answer.parked().orElseThrow().pair());
    assertTrue(pacer.mayApply(T0));
  }

  @Test
  void theResyncComesAPeriodAfterTheStartThenAPeriodAfterEachPass() {
    Pacer pacer = started(SyncerHarness.noResync().withResyncPeriod(Duration.ofMinutes(10)));

    Effect.WakeAt first = pacer.wake(T0, Optional.empty(), Optional.empty()).orElseThrow();
    assertEquals(T0.plus(Duration.ofMinutes(10)), first.timer().at());
    assertFalse(pacer.resyncDue(T0.plus(Duration.ofMinutes(10)).minusNanos(1)));
    assertTrue(pacer.resyncDue(T0.plus(Duration.ofMinutes(10))));

    Instant late = T0.plus(Duration.ofMinutes(10)).plusSeconds(3);
    assertTrue(pacer.fired(first.timer()));
    pacer.resyncing(late, 0);
    assertFalse(pacer.resyncDue(late));
    assertEquals(
        late.plus(Duration.ofMinutes(10)),
        pacer.wake(late, Optional.empty(), Optional.empty()).orElseThrow().timer().at());
  }

  @Test
  void withoutAResyncPeriodNothingIsEverDue() {
    Pacer pacer = started(SyncerHarness.noResync());
    assertEquals(Optional.empty(), pacer.wake(T0, Optional.empty(), Optional.empty()));
    assertFalse(pacer.resyncDue(T0.plus(Duration.ofDays(365))));
  }

  @Test
  void onlyTheTimerWaitedForCountsAndAnEarlierOneReplacesIt() {
    Pacer pacer = started(settings(20, 50, 0.5));
    pacer.enqueue(pair("a"), T0.plusSeconds(5), Lane.EVENT);
    Timer later = pacer.wake(T0, Optional.empty(), Optional.empty()).orElseThrow().timer();
    assertEquals(
        Optional.empty(),
        pacer.wake(T0, Optional.empty(), Optional.empty()),
        "waits for it already");
    pacer.enqueue(pair("b"), T0.plusSeconds(1), Lane.EVENT);
    Timer earlier = pacer.wake(T0, Optional.empty(), Optional.empty()).orElseThrow().timer();
    assertEquals(T0.plusSeconds(1), earlier.at());

    assertFalse(pacer.fired(later), "stale: an earlier timer was set since");
    assertTrue(pacer.fired(earlier));
    assertFalse(pacer.fired(earlier), "fired already");
  }

  @Test
  void aTimerWaitsForTheNextTokenWhenTheBudgetIsSpent() {
    Pacer pacer = started(settings(2, 1, 0.5));
    assertTrue(pacer.takeToken(T0));
    pacer.enqueue(pair("a"), T0, Lane.EVENT);
    assertEquals(
        T0.plusMillis(500),
        pacer.wake(T0, Optional.empty(), Optional.empty()).orElseThrow().timer().at());
  }

  @Test
  void aRefusedPairIsRetriedAsEventWorkAfterItsBackoffWhichLaterEventsCannotShorten() {
    Pacer pacer = started(settings(20, 50, 0.5));
    pacer.enqueue(pair("a"), T0, Lane.START);
    pacer.sent(pacer.next(T0).orElseThrow(), T0);
    pacer.answered(pair("a"));
    Retry retry = pacer.refused(pair("a"), T0, Lane.START);
    pacer.enqueue(pair("a"), T0, Lane.EVENT);

    assertEquals(T0.plusSeconds(1), retry.notBefore());
    assertEquals(List.of(), drain(pacer, T0.plusMillis(999)));
    assertEquals(List.of("event a"), drain(pacer, T0.plusSeconds(1)));
    assertTrue(pacer.succeeded(pair("a")));
    assertFalse(pacer.succeeded(pair("a")));
  }
}
