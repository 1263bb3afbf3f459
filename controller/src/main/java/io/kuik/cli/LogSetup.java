package io.kuik.cli;

import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Sends every log event of the process (kuik's own through java.util.logging and System.Logger,
 * fabric8's through slf4j-jdk14) to standard error, one line per event, at the level asked and
 * above, each through the process's redactor ({@link RedactingFormatter}).
 */
final class LogSetup {

  private static final Logger QUIET =
      Logger.getLogger("io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils");

  private LogSetup() {}

  static void configure(LogFormat format, LogLevel level) {
    Logger root = Logger.getLogger("");
    for (Handler handler : root.getHandlers()) {
      root.removeHandler(handler);
    }
    ConsoleHandler handler = new ConsoleHandler();
    handler.setLevel(Level.ALL);
    // Whatever the format, no line leaves with a form of a credential the process knows.
    handler.setFormatter(new RedactingFormatter(format.formatter()));
    root.addHandler(handler);
    root.setLevel(level.julLevel());
    // fabric8 warns at every start that v1alpha1 is an unstable version: it is kuik's own CRD
    // version, so the warning tells an operator nothing. Kept in a field: JUL holds loggers weakly.
    QUIET.setLevel(Level.SEVERE);
  }
}
