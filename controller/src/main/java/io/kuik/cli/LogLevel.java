package io.kuik.cli;

import java.util.logging.Level;

/** The lowest level logged, named as {@link LogBridge} names the levels of each line. */
public enum LogLevel {
  error(Level.SEVERE),
  warn(Level.WARNING),
  info(Level.INFO),
  debug(Level.FINE),
  trace(Level.FINEST);

  private final Level level;

  LogLevel(Level level) {
    this.level = level;
  }

  Level julLevel() {
    return level;
  }
}
