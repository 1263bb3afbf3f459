package io.kuik.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The gate's bound: which pods are due, in which order when more are due than may be released at
 * once (in turn from each namespace, oldest first), and what an answer changes.
 */
class GateBoundTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Duration MAX_WAIT = Duration.ofSeconds(30);

  private final GateBound bound = new GateBound(MAX_WAIT, Duration.ofSeconds(5));

  private GateBound.GatedPod gated(String namespace, String name, Instant created) {
    GateBound.GatedPod pod = new GateBound.GatedPod(namespace, name, "uid-" + name, created, 0);
    bound.podChanged(namespace, name, pod);
    return pod;
  }

  @Test
  void aPodIsDueAtItsCreationPlusTheBoundAndNotBefore() {
    gated("team-a", "web", T0);

    assertEquals(List.of(), bound.due(T0.plus(MAX_WAIT).minusMillis(1)));
    assertEquals(Optional.of(T0.plus(MAX_WAIT)), bound.next());
    assertEquals(1, bound.due(T0.plus(MAX_WAIT)).size());
    assertEquals(List.of(), bound.due(T0.plus(MAX_WAIT)), "in flight: not due twice");
  }

  @Test
  void aFloodInOneNamespaceDelaysAnotherNamespacesPodByOneReleaseAtMost() {
    for (int i = 0; i < 10_000; i++) {
      gated("flood", "pod-" + i, T0.plusMillis(i));
    }
    gated("team-b", "web", T0.plusSeconds(20));
    Instant now = T0.plus(MAX_WAIT).plusSeconds(30);

    List<GateBound.GatedPod> first = bound.due(now, 8);

    assertEquals(8, first.size());
    assertEquals("flood/pod-0", first.get(0).namespace() + "/" + first.get(0).name());
    assertEquals("team-b/web", first.get(1).namespace() + "/" + first.get(1).name());
    assertEquals(8, bound.due(now, 8).size(), "the rest wait for the next call");
    assertTrue(bound.due(now, 8).stream().noneMatch(p -> p.namespace().equals("team-b")));
  }

  @Test
  void aReleaseRefusedForAnotherReasonIsTriedAgainAfterTheRetry() {
    GateBound.GatedPod pod = gated("team-a", "web", T0);
    Instant due = T0.plus(MAX_WAIT);
    bound.due(due);

    assertFalse(bound.answered(pod, 503, due));
    assertEquals(List.of(), bound.due(due.plusSeconds(4)));
    assertEquals(List.of(pod), bound.due(due.plusSeconds(5)));
    assertTrue(bound.answered(pod, 200, due.plusSeconds(5)));
    assertEquals(1, bound.released());
    assertEquals(0, bound.gated());
  }

  @Test
  void aPodGoneOrAnotherNowIsForgottenWithoutAnEvent() {
    GateBound.GatedPod pod = gated("team-a", "web", T0);
    bound.due(T0.plus(MAX_WAIT));

    assertFalse(bound.answered(pod, 422, T0.plus(MAX_WAIT)));
    assertEquals(0, bound.gated());
    assertEquals(Optional.empty(), bound.next());
  }

  @Test
  void neverTakesMoreThanAskedEvenWhenTheLastPlaceFallsMidRound() {
    GateBound.GatedPod a1 = gated("team-a", "one", T0);
    GateBound.GatedPod b1 = gated("team-b", "one", T0.plusMillis(1));
    GateBound.GatedPod a2 = gated("team-a", "two", T0.plusMillis(2));
    gated("team-b", "two", T0.plusMillis(3));

    assertEquals(List.of(a1, b1, a2), bound.due(T0.plus(MAX_WAIT).plusSeconds(1), 3));
  }

  @Test
  void nextIsTheEarliestDeadlineOfThePodsNotInFlight() {
    gated("team-a", "web", T0);
    bound.due(T0.plus(MAX_WAIT));

    assertEquals(Optional.empty(), bound.next(), "the only pod is in flight");

    gated("team-a", "api", T0.plusSeconds(7));

    assertEquals(Optional.of(T0.plusSeconds(7).plus(MAX_WAIT)), bound.next());
  }

  @Test
  void aPodInFlightThatTheInformerShowsAgainIsNotDueTwice() {
    GateBound.GatedPod pod = gated("team-a", "web", T0);
    Instant due = T0.plus(MAX_WAIT);
    assertEquals(List.of(pod), bound.due(due));

    bound.podChanged("team-a", "web", new GateBound.GatedPod("team-a", "web", "uid-web", T0, 1));

    assertEquals(List.of(), bound.due(due.plusSeconds(1)));
  }

  @Test
  void anotherPodUnderTheSameNameIsDueByItsOwnCreation() {
    gated("team-a", "web", T0);
    Instant due = T0.plus(MAX_WAIT);
    bound.due(due);

    GateBound.GatedPod again =
        new GateBound.GatedPod("team-a", "web", "uid-web-again", T0.plusSeconds(2), 0);
    bound.podChanged("team-a", "web", again);

    assertEquals(List.of(), bound.due(due.plusSeconds(1)));
    assertEquals(Optional.of(due.plusSeconds(2)), bound.next());
    assertEquals(List.of(again), bound.due(due.plusSeconds(2)));
  }

  @Test
  void countsTheGatedPodsItKnowsAndForgetsOneThatWent() {
    gated("team-a", "web", T0);
    gated("team-b", "web", T0);
    assertEquals(2, bound.gated());

    bound.podChanged("team-a", "web", null);

    assertEquals(1, bound.gated());
    assertEquals(
        List.of("team-b"), bound.due(T0.plus(MAX_WAIT)).stream().map(p -> p.namespace()).toList());
  }

  @Test
  void tellsItsBoundAndRefusesOneThatIsNotPositive() {
    assertEquals(MAX_WAIT, bound.maxWait());
    IllegalArgumentException zero =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> new GateBound(Duration.ZERO, Duration.ZERO));
    assertEquals("the gate's bound must be positive, got PT0S", zero.getMessage());
  }
}
