package io.kuik.kube.syncer;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one thread that owns the syncer's core. Every input of {@link io.kuik.syncer.SecretSyncer} is
 * handled here, so the core never sees two threads (its contract).
 *
 * <p>A task that throws is logged and dropped: one bad event must never stop the loop, or every
 * other pair would stop being served. After {@link #close()} new tasks are silently dropped, which
 * is what a process shutting down wants.
 */
final class CoreLoop implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(CoreLoop.class.getName());
  private static final Duration DRAIN = Duration.ofSeconds(10);

  private final ScheduledThreadPoolExecutor executor;

  CoreLoop(String threadName) {
    executor =
        new ScheduledThreadPoolExecutor(
            1,
            task -> {
              Thread thread = new Thread(task, threadName);
              thread.setDaemon(true);
              return thread;
            });
    executor.setRemoveOnCancelPolicy(true);
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
  }

  void execute(String what, Runnable task) {
    try {
      executor.execute(guarded(what, task));
    } catch (RejectedExecutionException closed) {
      LOG.fine(() -> "dropped after shutdown: " + what);
    }
  }

  void schedule(String what, Duration delay, Runnable task) {
    try {
      executor.schedule(guarded(what, task), Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException closed) {
      LOG.fine(() -> "dropped after shutdown: " + what);
    }
  }

  boolean isRunning() {
    return !executor.isShutdown();
  }

  /**
   * Stops at once: pending tasks are dropped (answers of applies still in flight among them), and
   * the task running now is interrupted and given a few seconds to end.
   */
  @Override
  public void close() {
    executor.shutdownNow();
    try {
      if (!executor.awaitTermination(DRAIN.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warning("the syncer's core did not stop within " + DRAIN);
      }
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static Runnable guarded(String what, Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (RuntimeException failure) {
        LOG.log(Level.SEVERE, "the syncer's core failed on " + what + "; it carries on", failure);
      } catch (Error fatal) {
        LOG.log(Level.SEVERE, "the syncer's core failed on " + what, fatal);
        throw fatal;
      }
    };
  }
}
