package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WorkQueueTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final Pair A = new Pair(new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "a"), "team-a");
  static final Pair B = new Pair(new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "b"), "team-a");
  static final Pair C = new Pair(new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "c"), "team-a");

  private final WorkQueue queue = new WorkQueue();

  private List<WorkQueue.Item> takeDue(Instant now) {
    List<WorkQueue.Item> due = new ArrayList<>();
    for (Optional<WorkQueue.Item> item = pollDue(queue, now);
        item.isPresent();
        item = pollDue(queue, now)) {
      due.add(item.get());
    }
    return due;
  }

  private static List<Pair> pairs(List<WorkQueue.Item> items) {
    return items.stream().map(WorkQueue.Item::pair).toList();
  }

  @Test
  void eventsForOnePairWithinTheWindowCollapseIntoOneReconcile() {
    queue.enqueue(A, T0.plusMillis(500), Lane.EVENT);
    queue.enqueue(A, T0.plusMillis(700), Lane.EVENT);
    queue.enqueue(A, T0.plusMillis(900), Lane.EVENT);
    assertEquals(1, queue.size());
    assertEquals(Optional.of(T0.plusMillis(500)), queue.nextDue());
    assertEquals(
        List.of(new WorkQueue.Item(A, T0.plusMillis(500), Lane.EVENT)), takeDue(T0.plusSeconds(1)));
    assertEquals(0, queue.size());
  }

  @Test
  void onlyDuePairsAreTakenInDueOrder() {
    queue.enqueue(B, T0.plusSeconds(2), Lane.EVENT);
    queue.enqueue(A, T0.plusSeconds(1), Lane.EVENT);
    queue.enqueue(new Pair(A.resource(), "later"), T0.plusSeconds(10), Lane.EVENT);
    assertEquals(List.of(A, B), pairs(takeDue(T0.plusSeconds(5))));
    assertEquals(Optional.of(T0.plusSeconds(10)), queue.nextDue());
  }

  @Test
  void pairsDueAtTheSameTimeAreTakenInNameOrder() {
    queue.enqueue(C, T0, Lane.START);
    queue.enqueue(A, T0, Lane.START);
    queue.enqueue(B, T0, Lane.START);
    assertEquals(List.of(A, B, C), pairs(takeDue(T0)));
  }

  @Test
  void eventWorkGoesBeforeTheStartPassAndTheStartPassBeforeAResync() {
    queue.enqueue(A, T0, Lane.RESYNC);
    queue.enqueue(B, T0.plusSeconds(1), Lane.START);
    queue.enqueue(C, T0.plusSeconds(3), Lane.EVENT);
    assertEquals(List.of(C, B, A), pairs(takeDue(T0.plusSeconds(5))));
  }

  @Test
  void theNextDueTimeIsTheEarliestOfEveryLane() {
    queue.enqueue(A, T0.plusSeconds(3), Lane.EVENT);
    queue.enqueue(B, T0.plusSeconds(1), Lane.RESYNC);
    queue.enqueue(C, T0.plusSeconds(2), Lane.START);
    assertEquals(Optional.of(T0.plusSeconds(1)), queue.nextDue());
    assertEquals(Optional.empty(), new WorkQueue().nextDue());
  }

  @Test
  void anEventForAPairInAPassMovesItToTheEventLaneAndKeepsTheEarlierTime() {
    queue.enqueue(A, T0.plusSeconds(1), Lane.RESYNC);
    queue.enqueue(B, T0, Lane.START);
    queue.enqueue(A, T0.plusSeconds(2), Lane.EVENT);
    WorkQueue.Item first = pollDue(queue, T0.plusSeconds(5)).orElseThrow();
    assertEquals(new WorkQueue.Item(A, T0.plusSeconds(1), Lane.EVENT), first);
  }

  @Test
  void aPassNeverMovesEventWorkOutOfItsLane() {
    queue.enqueue(A, T0.plusSeconds(2), Lane.EVENT);
    queue.enqueue(A, T0.plusSeconds(1), Lane.RESYNC);
    assertEquals(
        new WorkQueue.Item(A, T0.plusSeconds(1), Lane.EVENT),
        pollDue(queue, T0.plusSeconds(5)).orElseThrow());
  }

  @Test
  void aPairPutBackKeepsItsPlaceAndIsNoNewWork() {
    queue.enqueue(A, T0, Lane.START);
    queue.enqueue(B, T0.plusSeconds(1), Lane.START);
    WorkQueue.Item taken = pollDue(queue, T0.plusSeconds(2)).orElseThrow();
    queue.putBack(taken);
    assertEquals(List.of(A, B), pairs(takeDue(T0.plusSeconds(2))));
    assertEquals(2, queue.stats(Lane.START, T0.plusSeconds(2)).adds());
  }

  @Test
  void forgettingAPairRemovesItFromItsLane() {
    queue.enqueue(A, T0, Lane.EVENT);
    queue.enqueue(B, T0, Lane.RESYNC);
    queue.forget(A);
    queue.forget(B);
    queue.forget(C);
    assertEquals(0, queue.size());
    assertEquals(List.of(), takeDue(T0.plusSeconds(1)));
    assertEquals(0, queue.stats(Lane.EVENT, T0.plusSeconds(1)).depth());
    assertEquals(0, queue.stats(Lane.RESYNC, T0.plusSeconds(1)).depth());
  }

  @Test
  void theDepthCountsDuePairsAndScheduledOnesApart() {
    queue.enqueue(A, T0, Lane.RESYNC);
    queue.enqueue(B, T0.plusSeconds(10), Lane.RESYNC);
    queue.enqueue(C, T0.plusSeconds(20), Lane.RESYNC);

    assertEquals(
        new LaneStats(0, 3, 3, 0, Duration.ZERO), queue.stats(Lane.RESYNC, T0.minusSeconds(1)));
    assertEquals(
        new LaneStats(1, 2, 3, 0, Duration.ofSeconds(5)),
        queue.stats(Lane.RESYNC, T0.plusSeconds(5)));
    assertEquals(
        new LaneStats(2, 1, 3, 0, Duration.ofSeconds(10)),
        queue.stats(Lane.RESYNC, T0.plusSeconds(10)));

    pollDue(queue, T0.plusSeconds(10));
    assertEquals(
        new LaneStats(1, 1, 3, 0, Duration.ZERO), queue.stats(Lane.RESYNC, T0.plusSeconds(10)));
    assertEquals(new LaneStats(0, 0, 0, 0, Duration.ZERO), queue.stats(Lane.EVENT, T0));
  }

  @Test
  void aPairQueuedInThePastIsDueAtOnce() {
    queue.stats(Lane.EVENT, T0.plusSeconds(10));
    queue.enqueue(A, T0, Lane.EVENT);
    assertEquals(1, queue.stats(Lane.EVENT, T0.plusSeconds(10)).depth());
    queue.enqueue(A, T0.plusSeconds(20), Lane.EVENT);
    assertEquals(1, queue.stats(Lane.EVENT, T0.plusSeconds(10)).depth(), "still due, once");
    pollDue(queue, T0.plusSeconds(10));
    assertEquals(0, queue.stats(Lane.EVENT, T0.plusSeconds(10)).depth());
  }

  @Test
  void addsCountNewWorkInALaneButNotAPairAlreadyWaitingThere() {
    queue.enqueue(A, T0, Lane.RESYNC);
    queue.enqueue(A, T0, Lane.RESYNC);
    queue.enqueue(A, T0, Lane.EVENT);
    queue.enqueue(A, T0, Lane.RESYNC);
    assertEquals(1, queue.stats(Lane.RESYNC, T0).adds());
    assertEquals(1, queue.stats(Lane.EVENT, T0).adds());
    assertEquals(1, queue.stats(Lane.EVENT, T0).depth());
    assertEquals(0, queue.stats(Lane.RESYNC, T0).depth());
  }

  @Test
  void aRetryIsEventWorkCountedAgainstTheLaneThatFailed() {
    queue.retry(A, T0.plusSeconds(1), Lane.RESYNC);
    assertEquals(1, queue.stats(Lane.RESYNC, T0).retries());
    assertEquals(0, queue.stats(Lane.EVENT, T0).retries());
    assertEquals(
        new WorkQueue.Item(A, T0.plusSeconds(1), Lane.EVENT),
        pollDue(queue, T0.plusSeconds(1)).orElseThrow());
  }

  @Test
  void aPairPutBackWhileQueuedAgainMergesWithItsNewItem() {
    queue.enqueue(A, T0, Lane.RESYNC);
    WorkQueue.Item taken = pollDue(queue, T0).orElseThrow();
    queue.enqueue(A, T0.plusSeconds(60), Lane.EVENT); // e.g. a grace's end, queued meanwhile
    queue.putBack(taken);
    assertEquals(1, queue.size());
    assertEquals(new WorkQueue.Item(A, T0, Lane.EVENT), pollDue(queue, T0).orElseThrow());
    assertEquals(0, queue.size());
    assertEquals(Optional.empty(), pollDue(queue, T0.plusSeconds(120)), "nothing left behind");
  }

  /** The next due pair in lane order, as the core would take it with every lane open. */
  private static Optional<WorkQueue.Item> pollDue(WorkQueue queue, Instant now) {
    for (Lane lane : Lane.values()) {
      Optional<WorkQueue.Item> item = queue.pollDue(now, lane);
      if (item.isPresent()) {
        return item;
      }
    }
    return Optional.empty();
  }
}
