package io.kuik.sim.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventLoopTest {

  @Test
  void firesTimersInDueOrderAndTiesInSchedulingOrder() {
    EventLoop loop = new EventLoop(1);
    List<String> fired = new ArrayList<>();
    loop.schedule(Duration.ofSeconds(2), "late", () -> fired.add("late"));
    loop.schedule(Duration.ofSeconds(1), "first", () -> fired.add("first"));
    loop.schedule(Duration.ofSeconds(1), "second", () -> fired.add("second"));
    loop.runFor(Duration.ofSeconds(5));
    assertEquals(List.of("first", "second", "late"), fired);
  }

  @Test
  void startsAtTheFixedEpochAndMovesOnlyWhenRun() {
    EventLoop loop = new EventLoop(1);
    assertEquals(Instant.parse("2026-01-01T00:00:00Z"), loop.now());
    List<Instant> seen = new ArrayList<>();
    loop.schedule(Duration.ofMillis(1500), "t", () -> seen.add(loop.now()));
    assertEquals(EventLoop.EPOCH, loop.now());
    loop.runFor(Duration.ofSeconds(3));
    assertEquals(List.of(EventLoop.EPOCH.plusMillis(1500)), seen);
    assertEquals(EventLoop.EPOCH.plusSeconds(3), loop.now());
  }

  @Test
  void timersScheduledByTimersFireInTheSameRunWhenDue() {
    EventLoop loop = new EventLoop(1);
    List<String> fired = new ArrayList<>();
    loop.schedule(
        Duration.ofSeconds(1),
        "outer",
        () -> loop.schedule(Duration.ofSeconds(1), "inner", () -> fired.add("inner")));
    loop.runUntil(EventLoop.EPOCH.plusSeconds(2));
    assertEquals(List.of("inner"), fired);
  }

  @Test
  void runUntilIdleStopsAtTheLimitAndNamesWhatIsPending() {
    EventLoop loop = new EventLoop(1);
    loop.schedule(Duration.ofMinutes(10), "resync", () -> {});
    assertFalse(loop.runUntilIdle(Duration.ofMinutes(1)));
    assertEquals(EventLoop.EPOCH.plusSeconds(60), loop.now());
    assertEquals(1, loop.pending().size());
    assertTrue(loop.pending().get(0).startsWith("resync"));
  }

  @Test
  void runUntilIdleLeavesTheClockAtTheLastTimer() {
    EventLoop loop = new EventLoop(1);
    loop.schedule(Duration.ofSeconds(3), "once", () -> {});
    assertTrue(loop.runUntilIdle(Duration.ofHours(1)));
    assertEquals(EventLoop.EPOCH.plusSeconds(3), loop.now());
  }

  @Test
  void cancelledTimersDoNotFire() {
    EventLoop loop = new EventLoop(1);
    List<String> fired = new ArrayList<>();
    Timer t = loop.schedule(Duration.ofSeconds(1), "x", () -> fired.add("x"));
    t.cancel();
    assertTrue(loop.runUntilIdle(Duration.ofSeconds(5)));
    assertTrue(fired.isEmpty());
  }

  @Test
  void refusesToRunFromInsideItsOwnTimer() {
    EventLoop loop = new EventLoop(1);
    loop.schedule(Duration.ZERO, "reentrant", () -> loop.runFor(Duration.ofSeconds(1)));
    assertThrows(IllegalStateException.class, () -> loop.runFor(Duration.ofSeconds(1)));
  }

  @Test
  void componentStreamsDependOnlyOnTheSeedAndTheComponentName() {
    EventLoop a = new EventLoop(7);
    EventLoop b = new EventLoop(7);
    b.fork("faults").nextLong(); // another component drawing first changes nothing
    assertEquals(a.fork("storage").nextLong(), b.fork("storage").nextLong());
    assertNotEquals(
        new EventLoop(8).fork("storage").nextLong(), new EventLoop(7).fork("storage").nextLong());
  }

  @Test
  void aRestartedComponentGetsTheNextIncarnationsStream() {
    EventLoop loop = new EventLoop(7);
    long first = loop.fork("syncer").nextLong();
    long second = loop.fork("syncer").nextLong();
    assertNotEquals(first, second);
    EventLoop again = new EventLoop(7);
    again.fork("syncer");
    assertEquals(second, again.fork("syncer").nextLong());
  }

  @Test
  void uuidsAreVersionFour() {
    String uuid = new EventLoop(3).fork("storage").uuid();
    assertEquals('4', uuid.charAt(14));
    assertTrue("89ab".indexOf(uuid.charAt(19)) >= 0);
  }
}
