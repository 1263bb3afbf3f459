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
}
