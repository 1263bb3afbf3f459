package io.kuik.sim.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.check.WorldView.EntryView;
import io.kuik.sim.check.WorldView.InjectSecret;
import io.kuik.sim.check.WorldView.NamespaceView;
import io.kuik.sim.check.WorldView.PodView;
import io.kuik.sim.check.WorldView.Policy;
import io.kuik.sim.check.WorldView.ResourceView;
import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.Target;
import io.kuik.sim.trace.TraceRecord;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.LabelSelector;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The grace's two bounds on hand-made histories: a key taken out before the documented 15 minutes,
 * or still there well after, is a violation, unless a restart, a stale view or a state that ends
 * the grace at once explains it.
 */
class GraceInvariantsTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String SECRET = "kuik-inject-imagealternative-r1";
  private static final Target TARGET = Target.secret("team-a", SECRET);
  private static final Actor SYNCER = new Actor("syncer");
  private static final String KEY = "quay.io/r1/app";
  private static final Duration GRACE = Duration.ofMinutes(15);

  private final NotReleasedBeforeTheGrace early =
      new NotReleasedBeforeTheGrace(SYNCER, "kuik-system", GRACE, Duration.ofMinutes(1));
  private final ReleasedWhenTheGraceEnds late =
      new ReleasedWhenTheGraceEnds(
          SYNCER,
          "kuik-system",
          GRACE,
          Duration.ofMinutes(1),
          Duration.ofMinutes(1),
          Duration.ofMinutes(6));

  private static ResourceView resource(Policy policy, String tier) {
    LabelSelector selector =
        tier == null
            ? LabelSelector.EVERYTHING
            : LabelSelector.of(Json.yaml("matchLabels: {tier: " + tier + "}"));
    return new ResourceView("r1", policy, selector, List.of(new EntryView(KEY, "src-a")));
  }

  /** team-a with the pod web-1 live or gone, and its Secret holding the key, empty, or absent. */
  private static WorldView view(Instant now, ResourceView r1, boolean podLive, Boolean held) {
    List<PodView> pods =
        podLive ? List.of(new PodView("team-a", "web-1", "r1", KEY + ":1", true)) : List.of();
    Map<Target, InjectSecret> secrets =
        held == null
            ? Map.of()
            : Map.of(
                TARGET, new InjectSecret("team-a", SECRET, held ? Map.of(KEY, "a:pw1") : Map.of()));
    return new WorldView(
        now,
        Map.of("team-a", new NamespaceView("team-a", Map.of(), false)),
        Map.of("r1", r1),
        pods,
        secrets,
        Map.of("src-a", Map.of("quay.io", "a:pw1")));
  }

  private static WorldView onFailure(Instant now, boolean podLive, Boolean held) {
    return view(now, resource(Policy.ON_FAILURE, null), podLive, held);
  }

  private static TraceRecord crash(Instant at) {
    return new Note.Incarnation(at, SYNCER, Note.Process.SYNCER, Note.Edge.CRASH, 1);
  }

  private static TraceRecord window(Instant at, Note.Fault fault, boolean opens) {
    return new Note.FaultWindow(at, fault, opens, "", "");
  }

  /** A pod needs the key at T0 and is deleted; 10 s later the key is still there. */
  private List<Violation> neededThenGone(Invariant invariant, List<TraceRecord> after) {
    List<Violation> found = invariant.check(onFailure(T0, true, true), List.of());
    assertTrue(found.isEmpty(), found.toString());
    found = invariant.check(onFailure(T0.plusSeconds(10), false, true), after);
    assertTrue(found.isEmpty(), found.toString());
    return found;
  }

  @Test
  void aKeyTakenOutBeforeTheGraceIsAViolationNamingTheKeyAndNoCredential() {
    neededThenGone(early, List.of());

    List<Violation> found =
        early.check(onFailure(T0.plus(Duration.ofMinutes(5)), false, false), List.of());

    assertEquals(1, found.size(), found.toString());
    assertEquals(TARGET, found.get(0).secretTarget());
    assertTrue(found.get(0).message().contains(KEY), found.get(0).message());
    assertFalse(found.get(0).message().contains("pw1"), "a credential leaked into the message");
  }

  @Test
  void aKeyTakenOutOnceTheGraceHasRunIsNoViolation() {
    neededThenGone(early, List.of());
    Instant later = T0.plus(GRACE).plusSeconds(1);

    assertTrue(early.check(onFailure(later, false, false), List.of()).isEmpty());
  }

  @Test
  void aRestartSinceTheNeedExplainsAnEarlyRelease() {
    neededThenGone(early, List.of(crash(T0.plusSeconds(5))));

    assertTrue(
        early.check(onFailure(T0.plus(Duration.ofMinutes(5)), false, false), List.of()).isEmpty());
  }

  @Test
  void aStaleViewAtTheNeedExplainsAnEarlyReleaseButAFaultAfterItDoesNot() {
    early.check(onFailure(T0, true, true), List.of(window(T0, Note.Fault.WATCH_FAULT, true)));
    early.check(onFailure(T0.plusSeconds(10), false, true), List.of());
    assertTrue(
        early.check(onFailure(T0.plus(Duration.ofMinutes(5)), false, false), List.of()).isEmpty(),
        "the syncer may never have seen the pod");

    NotReleasedBeforeTheGrace fresh =
        new NotReleasedBeforeTheGrace(SYNCER, "kuik-system", GRACE, Duration.ofMinutes(1));
    neededThenGone(fresh, List.of());
    Instant fault = T0.plus(Duration.ofMinutes(2));
    fresh.check(onFailure(fault, false, true), List.of(window(fault, Note.Fault.API_OUTAGE, true)));
    assertEquals(
        1,
        fresh.check(onFailure(T0.plus(Duration.ofMinutes(5)), false, false), List.of()).size(),
        "a fault after the need can only make a release later");
  }

  @Test
  void aResourceTurnedAlwaysOutOfScopeEndsTheGraceAtOnce() {
    neededThenGone(early, List.of());
    Instant flip = T0.plus(Duration.ofMinutes(1));

    List<Violation> found =
        early.check(view(flip, resource(Policy.ALWAYS, "prod"), false, false), List.of());

    assertTrue(found.isEmpty(), found.toString());
  }

  @Test
  void aSecretDeletedByAPersonIsLeftToTheResync() {
    neededThenGone(early, List.of());

    assertTrue(
        early.check(onFailure(T0.plus(Duration.ofMinutes(5)), false, null), List.of()).isEmpty());
  }

  @Test
  void aKeyStillHeldPastTheGraceAndTheMarginIsAViolation() {
    neededThenGone(late, List.of());
    Instant unneeded = T0.plusSeconds(10);

    assertTrue(
        late.check(onFailure(unneeded.plus(Duration.ofMinutes(16)), false, true), List.of())
            .isEmpty(),
        "within the grace and the margin");
    List<Violation> found =
        late.check(
            onFailure(unneeded.plus(Duration.ofMinutes(16)).plusSeconds(1), false, true),
            List.of());

    assertEquals(1, found.size(), found.toString());
    assertTrue(found.get(0).message().contains(KEY), found.get(0).message());
  }

  @Test
  void anOutageAroundTheReleaseExplainsALateOneButAnEarlierOutageDoesNot() {
    neededThenGone(late, List.of());
    Instant early = T0.plus(Duration.ofMinutes(5));
    late.check(onFailure(early, false, true), List.of(window(early, Note.Fault.API_OUTAGE, true)));
    Instant recovered = early.plus(Duration.ofMinutes(3));
    late.check(
        onFailure(recovered, false, true),
        List.of(window(recovered, Note.Fault.API_OUTAGE, false)));
    Instant release = T0.plus(Duration.ofMinutes(14));
    late.check(
        onFailure(release, false, true), List.of(window(release, Note.Fault.API_OUTAGE, true)));
    Instant healed = release.plus(Duration.ofMinutes(3));
    late.check(
        onFailure(healed, false, true), List.of(window(healed, Note.Fault.API_OUTAGE, false)));

    assertTrue(
        late.check(onFailure(T0.plus(Duration.ofMinutes(20)), false, true), List.of()).isEmpty(),
        "the release's write may wait for its retry");

    ReleasedWhenTheGraceEnds other =
        new ReleasedWhenTheGraceEnds(
            SYNCER,
            "kuik-system",
            GRACE,
            Duration.ofMinutes(1),
            Duration.ofMinutes(1),
            Duration.ofMinutes(6));
    neededThenGone(other, List.of());
    other.check(onFailure(early, false, true), List.of(window(early, Note.Fault.API_OUTAGE, true)));
    other.check(
        onFailure(recovered, false, true),
        List.of(window(recovered, Note.Fault.API_OUTAGE, false)));
    assertEquals(
        1,
        other.check(onFailure(T0.plus(Duration.ofMinutes(20)), false, true), List.of()).size(),
        "an outage long before the release explains nothing");
  }

  @Test
  void aStaleViewWhenThePodWentAwayMovesTheDeadlineToItsEnd() {
    late.check(onFailure(T0, true, true), List.of());
    Instant gone = T0.plusSeconds(10);
    late.check(onFailure(gone, false, true), List.of(window(gone, Note.Fault.WATCH_FAULT, true)));
    Instant healed = T0.plus(Duration.ofMinutes(3));
    late.check(
        onFailure(healed, false, true), List.of(window(healed, Note.Fault.WATCH_FAULT, false)));
    Instant learned = healed.plus(Duration.ofMinutes(1));

    assertTrue(
        late.check(onFailure(learned.plus(Duration.ofMinutes(16)), false, true), List.of())
            .isEmpty());
    assertEquals(
        1,
        late.check(
                onFailure(learned.plus(Duration.ofMinutes(16)).plusSeconds(1), false, true),
                List.of())
            .size());
  }
}
