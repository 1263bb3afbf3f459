package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.kuik.model.CredentialTrial;
import io.kuik.model.ProviderCredential;
import io.kuik.model.ProviderExchange;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import io.kuik.model.TrialVerdict;
import io.kuik.model.WriteBounds;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one gate every write passes (docs/architecture.md#the-write-gate): closed, for each of its
 * reasons, not one of the five kinds of write reaches the wire; open, each does, once.
 */
class WriteGateTest {

  /** A wire that remembers what reached it. */
  static final class RecordingWire implements SyncerWire {
    final List<String> sent = new ArrayList<>();

    @Override
    public Answer apply(Effect.ApplySecret apply) {
      sent.add("apply");
      return Answer.APPLIED;
    }

    @Override
    public Answer write(Effect.WriteStatus write) {
      sent.add("status");
      return Answer.APPLIED;
    }

    @Override
    public void record(Effect.RecordEvent event) {
      sent.add("event");
    }

    @Override
    public Answer release(Effect.ReleaseGate release) {
      sent.add("release");
      return Answer.APPLIED;
    }

    @Override
    public TrialVerdict tryCredential(Effect.TryCredential trial) {
      sent.add("trial");
      return TrialVerdict.accepted("200");
    }

    @Override
    public Answer store(Effect.StoreProviderCredential store) {
      sent.add("store");
      return Answer.APPLIED;
    }
  }

  private static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");
  private static final WriteBounds IN_PLACE = new WriteBounds(true, "in place");

  /** Sends one write of every kind through the gate; returns what it answered the five writes. */
  private static List<Object> everyWrite(WriteGate gate) {
    List<Object> answers = new ArrayList<>();
    answers.add(
        gate.apply(
            new Effect.ApplySecret(
                new SecretBuilder().withNewMetadata().withName("s").endMetadata().build(),
                new Pair(ACME, "team-a"),
                Lane.EVENT,
                "uid",
                0,
                true)));
    answers.add(
        gate.write(
            new Effect.WriteStatus(
                new RoutingStatus(ACME, 1, true, "Valid", "", 1, Instant.EPOCH, null, null))));
    gate.record(
        Effect.RecordEvent.onResource(ACME, "uid", Effect.RecordEvent.Type.Warning, "R", "m"));
    answers.add(gate.release(new Effect.ReleaseGate("team-a", "web", "uid", 0)));
    answers.add(
        gate.tryCredential(
            new Effect.TryCredential(
                new CredentialTrial(
                    "quay.io",
                    RegistryCredential.basic("u", "p"),
                    new TreeSet<>(Set.of("acme/app"))))));
    answers.add(
        gate.store(
            new Effect.StoreProviderCredential(
                new SecretBuilder()
                    .withNewMetadata()
                    .withName("kuik-provider-p")
                    .endMetadata()
                    .build(),
                new ProviderCredential(
                    "p",
                    new ProviderCredential.Slot(ProviderExchange.CacheKeyType.Global, "*"),
                    "digest",
                    Map.of(),
                    Instant.EPOCH,
                    Instant.EPOCH.plusSeconds(3600)))));
    return answers;
  }

  @ParameterizedTest(name = "closed: {0}")
  @ValueSource(strings = {"standby", "deposed", "no policy", "policy gone", "stopping"})
  void aClosedGateLetsNoWriteOfAnyKindThrough(String why) {
    RecordingWire wire = new RecordingWire();
    WriteGate gate = new WriteGate(wire);
    Consumer<WriteGate> close =
        switch (why) {
          case "standby" -> g -> g.bounds(IN_PLACE);
          case "deposed" ->
              g -> {
                g.bounds(IN_PLACE);
                g.leading(true);
                g.leading(false);
              };
          case "no policy" -> g -> g.leading(true);
          case "policy gone" ->
              g -> {
                g.leading(true);
                g.bounds(IN_PLACE);
                g.bounds(new WriteBounds(false, "the binding does not exist"));
              };
          default ->
              g -> {
                g.leading(true);
                g.bounds(IN_PLACE);
                g.stopping();
              };
        };
    close.accept(gate);

    List<Object> answers = everyWrite(gate);

    assertEquals(List.of(), wire.sent, "nothing reached the wire");
    assertFalse(gate.isOpen());
    assertEquals(6, gate.stopped(), "each write counted as stopped");
    for (Object answer : List.of(answers.get(0), answers.get(1), answers.get(2), answers.get(4))) {
      assertTrue(answer instanceof Answer.Refused refused && refused.code() == 0, "" + answer);
    }
    TrialVerdict trial = (TrialVerdict) answers.get(3);
    assertEquals(TrialVerdict.Outcome.UNREACHABLE, trial.outcome());
    assertTrue(trial.answer().startsWith("not tried"), trial.answer());
  }

  @ParameterizedTest(name = "open after {0}")
  @ValueSource(strings = {"leading then bounds", "bounds then leading"})
  void anOpenGateSendsEachWriteOnce(String order) {
    RecordingWire wire = new RecordingWire();
    WriteGate gate = new WriteGate(wire);
    if (order.startsWith("leading")) {
      gate.leading(true);
      gate.bounds(IN_PLACE);
    } else {
      gate.bounds(IN_PLACE);
      gate.leading(true);
    }

    everyWrite(gate);

    assertEquals(List.of("apply", "status", "event", "release", "trial", "store"), wire.sent);
    assertTrue(gate.isOpen());
    assertEquals(0, gate.stopped());
  }

  @Test
  void theRefusalSaysWhichReasonClosedTheGateAndTheBoundsAreWhatThePolicyWatchLastDecided() {
    WriteGate gate = new WriteGate(new RecordingWire());
    assertFalse(gate.bounds().inPlace(), "closed until the policy is read");
    assertEquals(WriteGate.NOT_LEADER, gate.refusal());

    gate.leading(true);
    Answer.Refused noPolicy = gate.refusal();
    assertEquals(WriteGate.NO_ADMISSION_POLICY, noPolicy.reason());
    assertTrue(noPolicy.message().endsWith("; nothing was sent"), noPolicy.message());

    gate.bounds(IN_PLACE);
    assertSame(IN_PLACE, gate.bounds());
    assertNull(gate.refusal());

    gate.stopping();
    assertEquals(WriteGate.SHUTTING_DOWN, gate.refusal(), "stopping wins over leading");
  }
}
