package io.kuik.syncer;

import static io.kuik.syncer.SyncerHarness.T0;
import static io.kuik.syncer.SyncerHarness.alternative;
import static io.kuik.syncer.SyncerHarness.config;
import static io.kuik.syncer.SyncerHarness.repository;
import static io.kuik.syncer.SyncerHarness.selector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.Problem;
import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import io.kuik.model.Validated;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The core as a function: each input handed in by hand, and the list of effects it returns checked
 * whole (docs/architecture.md#the-sans-io-core). The view is a harness that is never started.
 */
class SecretSyncerEffectsTest {

  static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");
  static final ResourceId BROKEN = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "broken");
  static final Pair TEAM_A = new Pair(ACME, "team-a");
  static final Duration DEBOUNCE = Duration.ofMillis(500);

  private final SyncerHarness view = SyncerHarness.withDefaults();

  private SecretSyncer core(SyncerSettings settings) {
    view.applyNamespace("team-a", "tier=prod");
    view.source("acme-pull", config("quay.io/acme", "acme", "s3cret"));
    view.resource(
        alternative(
            "acme",
            RewritePolicy.ALWAYS,
            selector("tier", "prod"),
            repository(0, "quay.io/acme/foo", "acme-pull")));
    return new SecretSyncer(settings, view);
  }

  private static Timer timerOf(List<Effect> effects) {
    return ((Effect.WakeAt) effects.get(effects.size() - 1)).timer();
  }

  private static List<Class<?>> kinds(List<Effect> effects) {
    return effects.stream().<Class<?>>map(Object::getClass).toList();
  }

  @Test
  void theStartTriesTheCredentialAndAsksForOneTimerAtTheEndOfTheDebounceAndDoesNothingElse() {
    SecretSyncer core = core(SyncerHarness.noResync());

    List<Effect> effects = core.handle(new Input.Started(), T0);

    assertEquals(List.of(Effect.TryCredential.class, Effect.WakeAt.class), kinds(effects));
    io.kuik.model.CredentialTrial trial = ((Effect.TryCredential) effects.get(0)).trial();
    assertEquals("quay.io", trial.registry());
    assertEquals(java.util.Set.of("acme/foo"), trial.paths());
    assertEquals(new Effect.WakeAt(new Timer(T0.plus(DEBOUNCE), 1)), effects.get(1));
    assertEquals(List.of(), core.handle(new Input.Started(), T0), "a second start is ignored");
  }

  @Test
  void theTimerSendsTheApplyThenTheStatusAndTheAnswerRecordsThem() {
    SecretSyncer core = core(SyncerHarness.noResync());
    Timer timer = timerOf(core.handle(new Input.Started(), T0));
    Instant due = T0.plus(DEBOUNCE);

    List<Effect> effects = core.handle(new Input.TimerFired(timer), due);

    assertEquals(List.of(Effect.ApplySecret.class, Effect.WriteStatus.class), kinds(effects));
    Effect.ApplySecret apply = (Effect.ApplySecret) effects.get(0);
    assertEquals(TEAM_A, apply.pair());
    assertEquals(Lane.START, apply.lane());
    assertEquals("uid-acme", apply.uid());
    assertTrue(apply.holds());
    assertEquals(0, ((Effect.WriteStatus) effects.get(1)).status().secretNamespaces(), "not yet");
    assertEquals(1, core.appliesInFlight());

    List<Effect> answered = core.handle(new Input.ApplyAnswered(apply, Answer.APPLIED), due);
    assertEquals(0, core.appliesInFlight());
    assertEquals(List.of(), answered, "the status in flight waits for its own answer");
    Effect.WriteStatus status = (Effect.WriteStatus) effects.get(1);
    Instant fiveSecondsOn = due.plus(ResourceStatuses.MIN_INTERVAL);
    assertEquals(
        List.of(new Effect.WakeAt(new Timer(fiveSecondsOn, 2))),
        core.handle(new Input.StatusAnswered(status, Answer.APPLIED), due),
        "the count changed with the answer: written again 5 s after the last write");
    List<Effect> again =
        core.handle(new Input.TimerFired(new Timer(fiveSecondsOn, 2)), fiveSecondsOn);
    assertEquals(List.of(Effect.WriteStatus.class), kinds(again));
    assertEquals(1, ((Effect.WriteStatus) again.get(0)).status().secretNamespaces());
  }

  @Test
  void aStaleTimerChangesNothing() {
    SecretSyncer core = core(SyncerHarness.noResync());
    core.handle(new Input.Started(), T0);

    assertEquals(List.of(), core.handle(new Input.TimerFired(new Timer(T0, 99)), T0));
    assertEquals(0, core.counters().reconciles());
  }

  @Test
  void anInvalidResourceIsReportedOnceAsAnEventThatPaysItsToken() {
    SecretSyncer core = core(SyncerHarness.noResync().withWriteLimit(1, 1));
    view.resource(new Validated.Invalid(BROKEN, List.of(new Problem("spec", "is required"))));

    List<Effect> effects = core.handle(new Input.Started(), T0);

    assertEquals(
        Effect.RecordEvent.onResource(
            BROKEN,
            null,
            Effect.RecordEvent.Type.Warning,
            ProblemReports.INVALID_RESOURCE,
            "spec: is required"),
        effects.get(0));
    assertEquals(
        T0.plusSeconds(1),
        timerOf(effects).at(),
        "the Event took the only token: the apply due after the debounce waits for the next");
    assertEquals(
        List.of(),
        core.handle(new Input.ResourceChanged(BROKEN), T0.plusMillis(1)),
        "reported once, and the timer waited for still stands");
  }

  @Test
  void everyInputButTheStartComesAfterIt() {
    SecretSyncer core = core(SyncerHarness.noResync());
    assertThrows(
        IllegalStateException.class, () -> core.handle(new Input.NamespaceChanged("team-a"), T0));
  }

  @Test
  void theCoreSetsItsOwnResyncTimerAPeriodAfterTheStartAndOneForEachWrittenPairsSlot() {
    Duration period = Duration.ofMinutes(10);
    SecretSyncer core = core(SyncerHarness.noResync().withResyncPeriod(period));
    Timer first = timerOf(core.handle(new Input.Started(), T0));
    Instant due = T0.plus(DEBOUNCE);

    List<Effect> effects = core.handle(new Input.TimerFired(first), due);
    assertEquals(new Effect.WakeAt(new Timer(T0.plus(period), 2)), effects.get(2), "the resync");
    List<Effect> answered =
        core.handle(
            new Input.ApplyAnswered((Effect.ApplySecret) effects.get(0), Answer.APPLIED), due);

    Instant slot = new ResyncSlots(period, T0).slotAtOrAfter(TEAM_A, due.plusNanos(1));
    assertEquals(
        slot.isBefore(T0.plus(period)) ? List.of(new Effect.WakeAt(new Timer(slot, 3))) : List.of(),
        answered,
        "the written pair owes a forced apply at its slot, " + slot);
  }

  /**
   * While the admission policy that bounds the writes is away the core decides nothing into a write
   * and sets no timer; when it is back every pair is owed a forced apply, at once without a resync
   * period.
   */
  @Test
  void whileTheWritesAreHeldNothingIsDecidedAndTheirReturnForcesEveryPair() {
    SecretSyncer core = core(SyncerHarness.noResync());
    Timer first = timerOf(core.handle(new Input.Started(), T0));
    Instant due = T0.plus(DEBOUNCE);
    List<Effect> sent = core.handle(new Input.TimerFired(first), due);
    core.handle(new Input.ApplyAnswered((Effect.ApplySecret) sent.get(0), Answer.APPLIED), due);
    core.handle(new Input.StatusAnswered((Effect.WriteStatus) sent.get(1), Answer.APPLIED), due);

    assertEquals(List.of(), core.handle(new Input.WriteBoundsChanged(false), T0.plusSeconds(1)));
    assertEquals(
        List.of(),
        core.handle(new Input.NamespaceChanged("team-a"), T0.plusSeconds(2)),
        "queued, but no timer while held");
    long reconciles = core.counters().reconciles();

    List<Effect> released = core.handle(new Input.WriteBoundsChanged(true), T0.plusSeconds(3));
    assertEquals(List.of(Effect.WakeAt.class), kinds(released), "the event's work found nothing");
    assertTrue(core.counters().reconciles() > reconciles, "ran what was due at once");
    Timer resync = timerOf(released);
    assertEquals(T0.plusSeconds(3).plus(DEBOUNCE), resync.at(), "every pair's forced apply");
    List<Effect> forced = core.handle(new Input.TimerFired(resync), resync.at());
    assertEquals(
        Effect.ApplySecret.class, forced.get(0).getClass(), "the unchanged Secret, forced");
    assertEquals(
        List.of(),
        core.handle(new Input.WriteBoundsChanged(true), resync.at()),
        "in place again: nothing to release");
  }
}
