package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WorkQueueTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final Pair A = new Pair(new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "a"), "team-a");
  static final Pair B = new Pair(new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "b"), "team-a");

  private final WorkQueue queue = new WorkQueue();

  @Test
  void eventsForOnePairWithinTheWindowCollapseIntoOneReconcile() {
    queue.enqueue(A, T0.plusMillis(500), false);
    queue.enqueue(A, T0.plusMillis(700), false);
    queue.enqueue(A, T0.plusMillis(900), false);
    assertEquals(1, queue.size());
    assertEquals(Optional.of(T0.plusMillis(500)), queue.nextDue());
    assertEquals(
        List.of(new WorkQueue.Item(A, T0.plusMillis(500), false, false)),
        queue.takeDue(T0.plusSeconds(1)));
    assertEquals(0, queue.size());
  }

  @Test
  void aForcedReconcileStaysForcedWhenMergedWithAnOrdinaryOne() {
    queue.enqueue(A, T0.plusMillis(500), true);
    queue.enqueue(A, T0.plusMillis(100), false);
    WorkQueue.Item item = queue.takeDue(T0.plusSeconds(1)).get(0);
    assertTrue(item.force());
    assertEquals(T0.plusMillis(100), item.due());
  }

  @Test
  void onlyDuePairsAreTakenInDueOrder() {
    queue.enqueue(B, T0.plusSeconds(2), false);
    queue.enqueue(A, T0.plusSeconds(1), false);
    queue.enqueue(new Pair(A.resource(), "later"), T0.plusSeconds(10), false);
    List<WorkQueue.Item> due = queue.takeDue(T0.plusSeconds(5));
    assertEquals(List.of(A, B), due.stream().map(WorkQueue.Item::pair).toList());
    assertEquals(Optional.of(T0.plusSeconds(10)), queue.nextDue());
  }

  @Test
  void eventWorkGoesBeforeABulkPassEvenWhenDueLater() {
    queue.enqueue(A, T0, true, true);
    queue.enqueue(B, T0.plusSeconds(3), false);
    List<WorkQueue.Item> due = queue.takeDue(T0.plusSeconds(5));
    assertEquals(List.of(B, A), due.stream().map(WorkQueue.Item::pair).toList());
  }

  @Test
  void anEventForAPairInTheBulkPassMovesItToTheEventLane() {
    queue.enqueue(A, T0.plusSeconds(1), true, true);
    queue.enqueue(B, T0, false, true);
    queue.enqueue(A, T0.plusSeconds(2), false);
    WorkQueue.Item first = queue.pollDue(T0.plusSeconds(5)).orElseThrow();
    assertEquals(A, first.pair());
    assertTrue(first.force(), "still forced");
    assertEquals(T0.plusSeconds(1), first.due(), "keeps the earlier time");
  }
}
