package io.kuik.kube.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The core's one thread: a task that throws is dropped and the next one runs (one bad event never
 * stops every pair); tasks run one at a time in order; a delay in the past runs at once; after
 * {@code close()} the loop is not running and new tasks are dropped, which {@code /healthz} reads.
 */
class CoreLoopTest {

  @Test
  void aTaskThatThrowsIsDroppedAndTheLoopCarriesOn() throws Exception {
    try (CoreLoop loop = new CoreLoop("core-test")) {
      List<String> ran = new CopyOnWriteArrayList<>();
      CountDownLatch done = new CountDownLatch(1);
      loop.execute("first", () -> ran.add("first:" + Thread.currentThread().getName()));
      loop.execute(
          "bad",
          () -> {
            throw new IllegalStateException("a bad event");
          });
      loop.execute(
          "after",
          () -> {
            ran.add("after");
            done.countDown();
          });

      assertTrue(done.await(10, TimeUnit.SECONDS));
      assertEquals(List.of("first:core-test", "after"), ran);
      assertTrue(loop.isRunning());
    }
  }

  @Test
  void aScheduledTaskWaitsItsDelayAndAPastOneRunsAtOnce() throws Exception {
    try (CoreLoop loop = new CoreLoop("core-test")) {
      List<String> ran = new CopyOnWriteArrayList<>();
      CountDownLatch both = new CountDownLatch(2);
      long start = System.nanoTime();
      loop.schedule(
          "later",
          Duration.ofMillis(300),
          () -> {
            ran.add("later");
            both.countDown();
          });
      loop.schedule(
          "past",
          Duration.ofSeconds(-5),
          () -> {
            ran.add("past");
            both.countDown();
          });

      assertTrue(both.await(10, TimeUnit.SECONDS));
      assertEquals(List.of("past", "later"), ran);
      assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(300));
    }
  }

  @Test
  void afterCloseTheLoopIsNotRunningAndDropsNewTasks() throws Exception {
    CoreLoop loop = new CoreLoop("core-test");
    List<String> ran = new CopyOnWriteArrayList<>();
    loop.schedule("pending", Duration.ofSeconds(1), () -> ran.add("pending"));

    loop.close();

    assertFalse(loop.isRunning());
    loop.execute("late", () -> ran.add("late"));
    loop.schedule("late", Duration.ZERO, () -> ran.add("late"));
    Thread.sleep(1_500);
    assertEquals(List.of(), ran, "a pending task and every task after the close are dropped");
  }
}
