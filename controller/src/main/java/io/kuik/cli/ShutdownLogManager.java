package io.kuik.cli;

import java.util.logging.LogManager;

/**
 * java.util.logging's manager minus the reset at JVM shutdown. The JDK resets logging in its own
 * shutdown hook, which runs beside kuik's: without this, the lines that say the syncer stopped
 * writing and gave its lease back would be lost on every SIGTERM. Handlers flush each line, so
 * skipping the reset loses nothing.
 *
 * <p>{@link Main#main} installs it before anything logs ({@code java.util.logging.manager}).
 */
public final class ShutdownLogManager extends LogManager {

  @Override
  public void reset() {
    // Kept as configured until the JVM halts; LogSetup replaces the handlers itself.
  }
}
