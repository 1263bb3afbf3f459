package io.kuik.cli;

import io.kuik.kube.LogRedaction;
import io.kuik.model.Redactor;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.LogRecord;

/**
 * One log event as both layouts write it: the message (line breaks folded, so that one event stays
 * one line) and the fields beside it, each value bounded, so that a line never exceeds {@value
 * #MAX} characters whatever a message carries (a resource's every problem, an API server's answer).
 * A longer value is cut and says how long it was, so that a log collector keeps the line whole and
 * the reader knows something was left out. Lengths count JSON's escapes. The message and the
 * failure pass the process's redactor ({@link LogRedaction}) before they are cut, so that no form
 * of a credential the process knows leaves in a line, nor the start of one cut short.
 *
 * @param message the record's message with its parameters, bounded
 * @param fields the fields of {@link LogFields}, then {@code error.type} and {@code error.message}
 *     when the record carries a failure
 */
record LogLine(String message, Map<String, String> fields) {

  /** The longest line either layout writes, its line break aside. */
  static final int MAX = 2_000;

  /** The longest message; the rest of the line fits beside it. */
  static final int MAX_MESSAGE = 1_200;

  /** The longest failure description, and the longest field value. */
  static final int MAX_ERROR = 400;

  static final int MAX_FIELD = 120;

  /**
   * What a line holds beside its message and fields, at most: the JSON keys and quotes, the time,
   * the level, the ECS version; the logger's and the thread's names are counted apart.
   */
  static final int FIXED = 200;

  static LogLine of(LogRecord record) {
    Map<String, String> fields = new LinkedHashMap<>();
    LogFields.of(record).forEach((name, value) -> fields.put(name, cut(value, MAX_FIELD)));
    Throwable thrown = record.getThrown();
    Redactor redactor = LogRedaction.current();
    if (thrown != null) {
      fields.put("error.type", cut(thrown.getClass().getName(), MAX_FIELD));
      fields.put("error.message", cut(redactor.redact(fold(describe(thrown))), MAX_ERROR));
    }
    int taken =
        FIXED
            + jsonLength(String.valueOf(record.getLoggerName()))
            + jsonLength(Thread.currentThread().getName());
    for (Map.Entry<String, String> field : fields.entrySet()) {
      taken += field.getKey().length() + 6 + jsonLength(field.getValue());
    }
    String message = redactor.redact(fold(LogFields.message(record)));
    return new LogLine(cut(message, Math.min(MAX_MESSAGE, Math.max(0, MAX - taken))), fields);
  }

  /** The failure as one line: its class and message, then its causes'. */
  static String describe(Throwable thrown) {
    StringBuilder line = new StringBuilder();
    for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (line.length() > 0) {
        line.append(" <- ");
      }
      line.append(t.getClass().getName());
      if (t.getMessage() != null) {
        line.append(": ").append(t.getMessage());
      }
    }
    return line.toString();
  }

  /**
   * The value itself when JSON writes it in at most {@code max} characters; else its start and
   * {@code … (N characters in all)}, {@code max} characters in all (only the length, when {@code
   * max} is too small to keep any of the value).
   */
  static String cut(String value, int max) {
    if (value == null || jsonLength(value) <= max) {
      return value;
    }
    String tail = "… (" + value.length() + " characters in all)";
    int room = max - tail.length();
    int keep = 0;
    for (int used = 0; keep < value.length(); keep++) {
      used += jsonLength(value.charAt(keep));
      if (used > room) {
        break;
      }
    }
    if (keep > 0 && Character.isHighSurrogate(value.charAt(keep - 1))) {
      keep--;
    }
    return value.substring(0, keep) + tail;
  }

  /** How many characters JSON writes for {@code value}, its escapes included. */
  static int jsonLength(String value) {
    int length = 0;
    for (int i = 0; i < value.length(); i++) {
      length += jsonLength(value.charAt(i));
    }
    return length;
  }

  private static int jsonLength(char c) {
    if (c == '"' || c == '\\') {
      return 2;
    }
    return c < 0x20 ? 6 : 1;
  }

  private static String fold(String message) {
    return message == null ? "" : message.replace("\r", "").replace('\n', ' ');
  }
}
