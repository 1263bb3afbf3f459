package io.kuik.cli;

/**
 * The bound on one log line: {@value #MAX} characters, whatever a message carries (a resource's
 * every problem, an API server's answer). A longer value is cut and says how long it was, so that a
 * log collector keeps the line whole and the reader knows something was left out.
 */
final class LogLine {

  /** The longest line either formatter writes, its line break aside. */
  static final int MAX = 2_000;

  /** The longest message; the rest of the line (time, level, logger, fields) fits beside it. */
  static final int MAX_MESSAGE = 1_200;

  /** The longest failure description, and the longest field value. */
  static final int MAX_ERROR = 400;

  static final int MAX_FIELD = 120;

  private LogLine() {}

  /**
   * The value itself when it has at most {@code max} characters; else its start and {@code … (N
   * characters in all)}, {@code max} characters in all (only the length, when {@code max} is too
   * small to keep any of the value).
   */
  static String cut(String value, int max) {
    if (value == null || value.length() <= max) {
      return value;
    }
    String tail = "… (" + value.length() + " characters in all)";
    int keep = Math.max(0, max - tail.length());
    if (keep > 0 && Character.isHighSurrogate(value.charAt(keep - 1))) {
      keep--;
    }
    return value.substring(0, keep) + tail;
  }
}
