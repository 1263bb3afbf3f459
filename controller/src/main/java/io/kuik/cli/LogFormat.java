package io.kuik.cli;

/** How log lines look: one event per line either way ({@link LogBridge}). */
public enum LogFormat {
  /** ECS JSON ({@code @timestamp}, {@code log.level}, {@code message}, ...), for log collectors. */
  json,
  /** {@code <time> <LEVEL> <logger> <message>}, for people. */
  text
}
