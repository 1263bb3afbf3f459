package io.kuik.cli;

import io.kuik.kube.ExitReason;
import io.kuik.kube.ProcessRuntime;
import java.util.logging.Logger;

/**
 * Runs a started process until it exits, as both commands do: a shutdown hook closes it on SIGTERM,
 * and {@link #stop()} does the same for a command run in-process (tests).
 */
final class UntilExit<R extends ProcessRuntime> {

  private static final Logger LOG = Logger.getLogger(UntilExit.class.getName());

  private volatile R running;
  private volatile boolean stopRequested;

  /** Blocks until {@code runtime} exits, closes it, and returns its exit code. */
  int run(R runtime) throws InterruptedException {
    Thread hook = new Thread(runtime::close, "kuik-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    running = runtime;
    if (stopRequested) {
      runtime.requestExit(ExitReason.SHUTDOWN);
    }
    try {
      ExitReason reason = runtime.awaitExit();
      LOG.info("exiting: " + reason);
      return reason.exitCode();
    } finally {
      runtime.close();
      running = null;
      removeHook(hook);
    }
  }

  /** Ends a running {@link #run} as SIGTERM would. */
  void stop() {
    stopRequested = true;
    R runtime = running;
    if (runtime != null) {
      runtime.requestExit(ExitReason.SHUTDOWN);
    }
  }

  R running() {
    return running;
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // The JVM is already running the hook: nothing to remove.
    }
  }
}
