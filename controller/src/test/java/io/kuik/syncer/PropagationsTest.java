package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PropagationsTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final ResourceId R = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "r");
  static final Pair A = new Pair(R, "a");
  static final Pair B = new Pair(R, "b");

  private final Propagations propagations = new Propagations();

  @Test
  void aChangeEndsWhenEveryPairItQueuedIsSettledAndMeasuresToTheLastApply() {
    propagations.changed(T0, List.of(A, B));
    assertEquals(List.of(), propagations.settled(A, T0.plusSeconds(1), true));
    assertEquals(
        List.of(Duration.ofSeconds(1)),
        propagations.settled(B, T0.plusSeconds(3), false),
        "B needed no write: the change reached everything with A's apply");
    assertEquals(0, propagations.open());
  }

  @Test
  void aChangeThatNeededNoApplyMeasuresNothing() {
    propagations.changed(T0, List.of(A));
    assertEquals(List.of(), propagations.settled(A, T0.plusSeconds(1), false));
    assertEquals(0, propagations.open());
  }

  @Test
  void twoChangesAreMeasuredEachFromItsOwnTime() {
    propagations.changed(T0, List.of(A, B));
    propagations.changed(T0.plusSeconds(2), List.of(A));
    propagations.settled(A, T0.plusSeconds(3), true);
    assertEquals(1, propagations.open());
    assertEquals(List.of(Duration.ofSeconds(4)), propagations.settled(B, T0.plusSeconds(4), true));
  }

  @Test
  void aPairSettledBeforeTheChangeIsNotCounted() {
    propagations.settled(A, T0, true);
    propagations.changed(T0.plusSeconds(1), List.of());
    assertEquals(0, propagations.open(), "a change that queued nothing is not kept");
  }
}
