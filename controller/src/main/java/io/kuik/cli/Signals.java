package io.kuik.cli;

import java.util.logging.Logger;
import sun.misc.Signal;

/**
 * SIGTERM and SIGINT as requests for a clean stop. Kubernetes stops a container with SIGTERM; the
 * JVM's default handling runs the shutdown hooks and exits 143, so a process that stopped cleanly
 * would still report a failure. Handled here, the signal ends the running command, which returns 0
 * and {@link Main} exits with it. {@code sun.misc.Signal} (module jdk.unsupported) is the JDK's
 * only way to handle a signal; where it is unavailable the shutdown hook still stops the process
 * cleanly, with the JVM's 143.
 */
final class Signals {

  private static final Logger LOG = Logger.getLogger(Signals.class.getName());

  private Signals() {}

  /** For the whole JVM: call once, from {@code main} only, never in a JVM that runs tests. */
  static void handleTermination() {
    for (String name : new String[] {"TERM", "INT"}) {
      try {
        Signal.handle(new Signal(name), signal -> UntilExit.stopAll());
      } catch (IllegalArgumentException | UnsupportedOperationException unavailable) {
        LOG.fine(() -> "SIG" + name + " is left to the JVM: " + unavailable.getMessage());
      }
    }
  }
}
