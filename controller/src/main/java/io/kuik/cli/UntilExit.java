package io.kuik.cli;

import io.kuik.kube.ExitReason;
import io.kuik.kube.ProcessRuntime;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * Runs a started process until it exits, as both commands do. SIGTERM (and SIGINT) end it through
 * {@link #stopAll()}, which {@link Signals} calls, so that {@code run} returns the exit code and
 * the JVM exits with it: 0 after a clean stop. The JVM's own handling of SIGTERM would run the
 * shutdown hook and exit 143 whatever {@code run} returned. The hook stays for every other way the
 * JVM may go down (System.exit from elsewhere, a signal that could not be handled); {@link #stop()}
 * ends one command run in-process (tests).
 */
final class UntilExit<R extends ProcessRuntime> {

  private static final Logger LOG = Logger.getLogger(UntilExit.class.getName());
  private static final Set<UntilExit<?>> RUNNING = ConcurrentHashMap.newKeySet();

  /** SIGTERM came, maybe before the process was running: it ends as soon as it runs. */
  private static volatile boolean terminating;

  private volatile R running;
  private volatile boolean stopRequested;

  /** Blocks until {@code runtime} exits, closes it, and returns its exit code. */
  int run(R runtime) throws InterruptedException {
    Thread hook = new Thread(runtime::close, "kuik-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    running = runtime;
    RUNNING.add(this);
    if (stopRequested || terminating) {
      runtime.requestExit(ExitReason.SHUTDOWN);
    }
    try {
      ExitReason reason = runtime.awaitExit();
      LOG.info("exiting: " + reason.describe());
      return reason.exitCode();
    } finally {
      runtime.close();
      running = null;
      RUNNING.remove(this);
      removeHook(hook);
    }
  }

  /** Ends every running {@link #run} of this JVM as a clean stop: what SIGTERM asks for. */
  static void stopAll() {
    terminating = true;
    RUNNING.forEach(UntilExit::stop);
  }

  /** Forgets a {@link #stopAll()}: tests run many commands, and stop them all, in one JVM. */
  static void forgetStopAll() {
    terminating = false;
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
