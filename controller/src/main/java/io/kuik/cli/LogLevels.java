package io.kuik.cli;

import java.util.logging.Level;

/** java.util.logging's levels under the names log collectors know. */
final class LogLevels {

  private LogLevels() {}

  static String name(Level level) {
    int value = level.intValue();
    if (value >= Level.SEVERE.intValue()) {
      return "ERROR";
    }
    if (value >= Level.WARNING.intValue()) {
      return "WARN";
    }
    if (value >= Level.INFO.intValue()) {
      return "INFO";
    }
    if (value >= Level.FINE.intValue()) {
      return "DEBUG";
    }
    return "TRACE";
  }

  /** The failure attached to a record, as one line: its class and message, then its causes'. */
  static String describe(Throwable thrown) {
    StringBuilder line = new StringBuilder();
    for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (line.length() > 0) {
        line.append(" <- ");
      }
      line.append(t.getClass().getName());
      if (t.getMessage() != null) {
        line.append(": ").append(t.getMessage().replace('\n', ' '));
      }
    }
    return line.toString();
  }
}
