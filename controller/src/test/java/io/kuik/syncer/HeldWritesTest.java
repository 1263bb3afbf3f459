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
import io.kuik.model.TrialVerdict;
import io.kuik.model.Validated;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The core's side of the write gate (docs/architecture.md#the-write-gate): while the admission
 * policy that bounds the writes is away, timers fire, writes in flight are answered, credentials'
 * trials come back refused and a resource turns invalid, and not one effect leaves the core: no
 * apply, status, release, trial or Event, and no timer. When the policy is back, the Events it kept
 * come first, in order, then the pairs' forced applies are due.
 */
class HeldWritesTest {

  static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");
  static final ResourceId BROKEN = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "broken");
  static final Duration DEBOUNCE = Duration.ofMillis(500);

  private final SyncerHarness view = SyncerHarness.withDefaults();

  private SecretSyncer core() {
    view.applyNamespace("team-a", "tier=prod");
    view.applyNamespace("team-b", "tier=prod");
    view.source("acme-pull", config("quay.io/acme", "acme", "s3cret"));
    view.resource(
        alternative(
            "acme",
            RewritePolicy.ALWAYS,
            selector("tier", "prod"),
            repository(0, "quay.io/acme/foo", "acme-pull")));
    return new SecretSyncer(SyncerHarness.noResync(), view);
  }

  private static <T extends Effect> List<T> of(List<Effect> effects, Class<T> kind) {
    return effects.stream().filter(kind::isInstance).map(kind::cast).toList();
  }

  @Test
  void whileHeldTimersAnswersAndEventsThatAreDueLeaveNothingAndTheEventsComeAfter() {
    SecretSyncer core = core();
    List<Effect> started = core.handle(new Input.Started(), T0);
    Effect.TryCredential trial = of(started, Effect.TryCredential.class).get(0);
    Timer timer = of(started, Effect.WakeAt.class).get(0).timer();
    Instant due = T0.plus(DEBOUNCE);
    List<Effect> sent = core.handle(new Input.TimerFired(timer), due);
    List<Effect.ApplySecret> applies = of(sent, Effect.ApplySecret.class);
    assertEquals(2, applies.size(), "team-a and team-b");
    Effect.WriteStatus status = of(sent, Effect.WriteStatus.class).get(0);
    long appliesSent = core.counters().appliesSent();

    // The policy goes while two applies, a status write and a trial are in flight.
    List<List<Effect>> duringTheHold = new ArrayList<>();
    duringTheHold.add(core.handle(new Input.WriteBoundsChanged(false), due.plusMillis(1)));
    // Each of these would record an Event, or write, were the writes not held.
    duringTheHold.add(
        core.handle(
            new Input.TrialAnswered(trial, TrialVerdict.refused("401 Unauthorized")),
            due.plusMillis(2)));
    duringTheHold.add(
        core.handle(
            new Input.ApplyAnswered(
                applies.get(0), new Answer.Refused(403, "Forbidden", "denied by a policy")),
            due.plusMillis(3)));
    duringTheHold.add(core.handle(new Input.ApplyAnswered(applies.get(1), Answer.APPLIED), due));
    duringTheHold.add(
        core.handle(new Input.StatusAnswered(status, Answer.APPLIED), due.plusMillis(4)));
    view.resource(new Validated.Invalid(BROKEN, List.of(new Problem("spec", "is required"))));
    duringTheHold.add(core.handle(new Input.ResourceChanged(BROKEN), due.plusMillis(5)));
    view.applyNamespace("team-c", "tier=prod");
    duringTheHold.add(core.handle(new Input.NamespaceChanged("team-c"), due.plusMillis(6)));
    duringTheHold.add(core.handle(new Input.SourceChanged("acme-pull"), due.plusMillis(7)));
    // Every timer the core ever set, and the one it would have set next, fire.
    for (int i = 0; i < 5; i++) {
      Instant later = due.plusSeconds(10 + i);
      duringTheHold.add(core.handle(new Input.TimerFired(new Timer(later, i)), later));
    }

    for (List<Effect> effects : duringTheHold) {
      assertEquals(List.of(), effects, "nothing leaves the core while its writes are held");
    }
    assertEquals(appliesSent, core.counters().appliesSent(), "no apply decided meanwhile");

    Instant back = due.plusSeconds(30);
    List<Effect> released = core.handle(new Input.WriteBoundsChanged(true), back);

    List<String> reasons =
        of(released, Effect.RecordEvent.class).stream().map(Effect.RecordEvent::reason).toList();
    assertEquals(
        List.of(
            CredentialTrials.REFUSED_EVENT,
            ProblemReports.WRITE_REFUSED,
            ProblemReports.INVALID_RESOURCE),
        reasons,
        "the Events kept through the hold, in the order they were decided");
    assertTrue(
        released.indexOf(of(released, Effect.RecordEvent.class).get(2)) < released.size() - 1,
        "then the rest: " + released);
    Timer resync = of(released, Effect.WakeAt.class).get(0).timer();
    List<Effect> forced = core.handle(new Input.TimerFired(resync), resync.at());
    assertTrue(!of(forced, Effect.ApplySecret.class).isEmpty(), "the forced applies go: " + forced);
  }

  @Test
  void aHoldKeepsAtMostItsShareOfEventsAndRefusesAnyOtherWrite() {
    List<Effect> held = new ArrayList<>();
    Effects effects =
        new Effects(new Pacer(SyncerHarness.noResync()), T0, held, io.kuik.model.Redactor::none);

    for (int i = 0; i < SecretSyncer.HELD_EVENTS + 5; i++) {
      effects.add(
          Effect.RecordEvent.onResource(
              ACME, "uid", Effect.RecordEvent.Type.Warning, "Reason", "event " + i));
    }

    assertEquals(SecretSyncer.HELD_EVENTS, held.size(), "kept: the first ones");
    assertEquals(List.of(), effects.list(), "nothing leaves while held");
    Effect release = new Effect.ReleaseGate("team-a", "web", "uid", 0);
    IllegalStateException bug =
        assertThrows(IllegalStateException.class, () -> effects.add(release));
    assertTrue(bug.getMessage().contains("while the writes are held"), bug.getMessage());
  }
}
