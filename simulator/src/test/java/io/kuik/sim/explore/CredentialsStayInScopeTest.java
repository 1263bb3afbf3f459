package io.kuik.sim.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.check.CredentialsStayInScope;
import io.kuik.sim.check.Violation;
import io.kuik.sim.check.WorldView;
import io.kuik.sim.check.WorldView.EntryView;
import io.kuik.sim.check.WorldView.InjectSecret;
import io.kuik.sim.check.WorldView.NamespaceView;
import io.kuik.sim.check.WorldView.PodView;
import io.kuik.sim.check.WorldView.Policy;
import io.kuik.sim.check.WorldView.ResourceView;
import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.Answer;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.trace.Target;
import io.kuik.sim.trace.TraceRecord;
import io.kuik.sim.world.object.LabelSelector;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The safety checker on hand-made views: its bound, and its exemption of restart leftovers. */
class CredentialsStayInScopeTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String SECRET = "kuik-inject-imagealternative-r1";
  private static final Target TARGET = Target.secret("team-a", SECRET);
  private static final Actor SYNCER = new Actor("syncer");
  private static final ResourceView ON_FAILURE =
      new ResourceView(
          "r1",
          Policy.ON_FAILURE,
          LabelSelector.EVERYTHING,
          List.of(new EntryView("quay.io/r1/app", "src-a")));

  private final CredentialsStayInScope checker =
      new CredentialsStayInScope(
          SYNCER, Duration.ofMinutes(15), Duration.ofMinutes(5), Duration.ofMinutes(4));

  private static WorldView view(Instant now, boolean podLive) {
    return new WorldView(
        now,
        Map.of("team-a", new NamespaceView("team-a", Map.of(), false)),
        Map.of("r1", ON_FAILURE),
        List.of(new PodView("team-a", "web-1", "r1", "quay.io/r1/app:1", podLive)),
        Map.of(TARGET, new InjectSecret("team-a", SECRET, Map.of("quay.io/r1/app", "a:pw1"))),
        Map.of());
  }

  private static TraceRecord start(Instant at) {
    return new Note.Incarnation(at, SYNCER, Note.Process.SYNCER, Note.Edge.START, 1);
  }

  private static TraceRecord apply(Instant at) {
    return new TraceRecord.Request(
        at, SYNCER, RequestKind.APPLY, TARGET, new Answer.Written(200, "2", false));
  }

  @Test
  void aCredentialHeldPastGracePlusSlackIsAViolationNamingTheSecretAndKey() {
    assertTrue(checker.check(view(T0, true), List.of(start(T0), apply(T0))).isEmpty());
    assertTrue(checker.check(view(T0.plusSeconds(10), false), List.of()).isEmpty());
    assertTrue(checker.check(view(T0.plus(Duration.ofMinutes(20)), false), List.of()).isEmpty());
    List<Violation> found = checker.check(view(T0.plus(Duration.ofMinutes(21)), false), List.of());
    assertEquals(1, found.size());
    assertEquals(TARGET, found.get(0).secretTarget());
    assertTrue(found.get(0).message().contains("quay.io/r1/app"), found.get(0).message());
    assertTrue(!found.get(0).message().contains("pw1"), "a credential leaked into the message");
  }

  @Test
  void aSecretLastWrittenByAnEarlierIncarnationIsAnExemptLeftover() {
    checker.check(view(T0, true), List.of(start(T0), apply(T0)));
    Instant restart = T0.plus(Duration.ofMinutes(1));
    checker.check(view(restart, false), List.of(start(restart)));
    assertTrue(checker.check(view(T0.plus(Duration.ofHours(2)), false), List.of()).isEmpty());
    // The running incarnation writes it again: it is checked again.
    Instant later = T0.plus(Duration.ofHours(3));
    assertTrue(checker.check(view(later, false), List.of(apply(later))).isEmpty());
    // Judged once a late event would have arrived (a minute), not before.
    assertEquals(1, checker.check(view(later.plusSeconds(61), false), List.of()).size());
  }
}
