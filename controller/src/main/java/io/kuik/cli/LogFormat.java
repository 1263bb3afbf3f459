package io.kuik.cli;

import java.util.logging.Formatter;

/** How log lines look: one event per line either way. */
public enum LogFormat {
  /** {@code {"time":…,"level":…,"logger":…,"message":…}}, for log collectors. */
  json,
  /** {@code <time> <LEVEL> <logger> <message>}, for people. */
  text;

  Formatter formatter() {
    return this == json ? new JsonLogFormatter() : new TextLogFormatter();
  }
}
