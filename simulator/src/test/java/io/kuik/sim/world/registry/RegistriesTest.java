package io.kuik.sim.world.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.model.RegistryCredential;
import io.kuik.sim.time.EventLoop;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.Note.RegistryEvent;
import io.kuik.sim.trace.Trace;
import java.time.Duration;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RegistriesTest {

  private static final RegistryCredential ALICE = RegistryCredential.basic("alice", "s3cret");
  private static final RegistryCredential BOB = RegistryCredential.basic("bob", "hunter2");

  private final EventLoop loop = new EventLoop(7);
  private final Trace trace = new Trace(loop.start());
  private final Registries registries = new Registries(loop, trace);

  private static ImageReference image(String reference) {
    try {
      return ImageReference.parse(reference);
    } catch (InvalidImageReferenceException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private void world() {
    registries.push("quay.io/acme/foo:1.0");
    registries.push("quay.io/acme-bar/x:1.0");
    registries.push("quay.io/public/tool:2");
    registries.registry("quay.io").requireCredential("acme", "alice", "s3cret");
    registries.registry("quay.io").requireCredential("acme-bar", "bob", "hunter2");
  }

  static Stream<Arguments> answers() {
    return Stream.of(
        Arguments.of(
            "if public and tagged, expect Available",
            "quay.io/public/tool:2",
            null,
            Availability.AVAILABLE),
        Arguments.of(
            "if public and the tag is missing, expect NotFound",
            "quay.io/public/tool:3",
            null,
            Availability.NOT_FOUND),
        Arguments.of(
            "if public, a known credential is accepted",
            "quay.io/public/tool:2",
            BOB,
            Availability.AVAILABLE),
        Arguments.of(
            "if a wrong password, expect Unauthorized even on a public path",
            "quay.io/public/tool:2",
            RegistryCredential.basic("alice", "wrong"),
            Availability.UNAUTHORIZED),
        Arguments.of(
            "if protected and anonymous, expect Unauthorized",
            "quay.io/acme/foo:1.0",
            null,
            Availability.UNAUTHORIZED),
        Arguments.of(
            "if protected and the granted user, expect Available",
            "quay.io/acme/foo:1.0",
            ALICE,
            Availability.AVAILABLE),
        Arguments.of(
            "if protected and another known user, expect Unauthorized",
            "quay.io/acme/foo:1.0",
            BOB,
            Availability.UNAUTHORIZED),
        Arguments.of(
            "if protected and missing, expect Unauthorized, not NotFound",
            "quay.io/acme/nothing:1",
            null,
            Availability.UNAUTHORIZED),
        Arguments.of(
            "if granted and missing, expect NotFound",
            "quay.io/acme/nothing:1",
            ALICE,
            Availability.NOT_FOUND),
        Arguments.of(
            "if the prefix is a whole segment, acme does not cover acme-bar",
            "quay.io/acme-bar/x:1.0",
            ALICE,
            Availability.UNAUTHORIZED),
        Arguments.of(
            "if the host has no registry, expect Unreachable",
            "ghcr.io/acme/foo:1.0",
            ALICE,
            Availability.UNREACHABLE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("answers")
  void pullAndProbeGiveTheSameAnswers(
      String rule, String reference, RegistryCredential credential, Availability expected) {
    world();
    assertEquals(expected, registries.pull(image(reference), credential), "pull: " + rule);
    assertEquals(expected, registries.probe(image(reference), credential), "probe: " + rule);
  }

  @Test
  void aDigestReferenceIsFoundByItsDigestWhateverItsTag() {
    String digest = registries.push("nginx:1.27");

    assertEquals(Availability.AVAILABLE, registries.pull(image("nginx:9.9@" + digest), null));
    assertEquals(
        Availability.NOT_FOUND, registries.pull(image("nginx@sha256:" + "0".repeat(64)), null));
    assertTrue(registries.find("docker.io").isPresent(), "nginx lands on docker.io");
    assertEquals(digest, registries.push("docker.io/library/nginx:1.27"), "digests are stable");
    assertNotEquals(digest, registries.push("nginx:1.28"));
  }

  @Test
  void aRegistryDownForAWhileIsUnreachableOnlyDuringTheWindow() {
    registries.push("quay.io/public/tool:2");
    Registry quay = registries.registry("quay.io");
    BiFunction<Duration, Availability, Void> at =
        (elapsed, expected) -> {
          loop.runUntil(loop.start().plus(elapsed));
          assertEquals(
              expected, registries.pull(image("quay.io/public/tool:2"), null), "at +" + elapsed);
          return null;
        };

    loop.runFor(Duration.ofSeconds(10));
    quay.downFor(Duration.ofSeconds(30));
    at.apply(Duration.ofSeconds(10), Availability.UNREACHABLE);
    at.apply(Duration.ofSeconds(39), Availability.UNREACHABLE);
    at.apply(Duration.ofSeconds(40), Availability.AVAILABLE);
    assertFalse(
        trace
            .where(r -> r instanceof Note.RegistryNote n && n.event() == RegistryEvent.UP)
            .isEmpty(),
        "the end is traced");
  }

  @Test
  void upEndsAnOutageEarlyAndDownLastsUntilUp() {
    registries.push("quay.io/public/tool:2");
    Registry quay = registries.registry("quay.io");

    quay.downFor(Duration.ofMinutes(5));
    quay.up();
    assertEquals(Availability.AVAILABLE, registries.pull(image("quay.io/public/tool:2"), null));

    quay.down();
    loop.runFor(Duration.ofHours(1));
    assertEquals(Availability.UNREACHABLE, registries.pull(image("quay.io/public/tool:2"), null));

    quay.downAt(loop.now().plus(Duration.ofMinutes(1)), Duration.ofMinutes(1));
    quay.up();
    assertTrue(quay.reachable());
    loop.runFor(Duration.ofSeconds(90));
    assertFalse(quay.reachable(), "a scheduled outage starts at its time");
    loop.runFor(Duration.ofSeconds(30));
    assertTrue(quay.reachable());
  }

  @Test
  void everyRequestIsTracedWithTheUserNameAndNeverThePassword() {
    world();
    registries.pull(image("quay.io/acme/foo:1.0"), ALICE);
    registries.probe(image("quay.io/acme/foo:1.0"), null);
    registries.pull(image("ghcr.io/x/y:1"), null);

    List<Note.RegistryNote> notes =
        trace.records().stream()
            .filter(r -> r instanceof Note.RegistryNote)
            .map(r -> (Note.RegistryNote) r)
            .toList();
    assertEquals(3, notes.size(), trace.timeline());
    assertEquals(RegistryEvent.PULL, notes.get(0).event());
    assertEquals(RegistryEvent.PROBE, notes.get(1).event());
    assertEquals("quay.io/acme/foo:1.0", notes.get(0).subject());
    assertEquals("Available as alice", notes.get(0).outcome());
    assertEquals("Unauthorized as anonymous", notes.get(1).outcome());
    assertTrue(notes.get(2).outcome().startsWith("Unreachable"), notes.get(2).outcome());
    assertFalse(trace.timeline().contains("s3cret"), trace.timeline());
  }

  @Test
  void aLoginIsAcceptedForAUserOfTheRegistryRefusedForAStrangerAndUnreachableWhileDown() {
    world();
    Registry quay = registries.registry("quay.io");

    assertEquals(Registry.Login.Outcome.ACCEPTED, quay.login(List.of("acme/foo"), ALICE).outcome());
    assertEquals(
        Registry.Login.Outcome.ACCEPTED,
        quay.login(List.of("acme/foo"), BOB).outcome(),
        "a realm grants a known user its token whatever the path; the pull says the rest");
    Registry.Login refused =
        quay.login(List.of("acme/foo"), RegistryCredential.basic("alice", "wrong"));
    assertEquals(Registry.Login.Outcome.REFUSED, refused.outcome());
    assertEquals("GET /v2/ answered 401 UNAUTHORIZED: authentication required", refused.answer());
    quay.down();
    assertEquals(
        Registry.Login.Outcome.UNREACHABLE, quay.login(List.of("acme/foo"), ALICE).outcome());
    assertEquals(
        Registry.Login.Outcome.UNREACHABLE,
        registries.login("nowhere.example", List.of("a"), ALICE).outcome());
  }

  @Test
  void aLoginIsTracedWithTheUserNameAndNeverThePassword() {
    world();

    registries.login("quay.io", List.of("acme/foo"), RegistryCredential.basic("alice", "wrong"));

    Note.RegistryNote note = (Note.RegistryNote) trace.records().get(trace.records().size() - 1);
    assertEquals(RegistryEvent.LOGIN, note.event());
    assertEquals("acme/foo", note.subject());
    assertEquals("refused as alice", note.outcome());
    assertFalse(trace.records().toString().contains("wrong"));
  }
}
