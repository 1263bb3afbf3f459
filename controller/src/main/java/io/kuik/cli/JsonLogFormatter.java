package io.kuik.cli;

import java.util.logging.Formatter;
import java.util.logging.LogRecord;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * One JSON object per line: {@code time} (ISO-8601, UTC), {@code level}, {@code logger}, {@code
 * message}, the fields of {@link LogFields} ({@code namespace}, {@code name}, {@code kind}, {@code
 * pod}, {@code pair}) when its parameters carry them, and {@code error} when it carries a failure
 * (its class and message, and its causes', on the same line). Messages are never credential values:
 * nothing in kuik logs one. A line never exceeds {@link LogLine#MAX} characters: longer values are
 * cut, with their length.
 *
 * <p>Public, with a public constructor, so that a java.util.logging configuration file can name it.
 */
public final class JsonLogFormatter extends Formatter {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Override
  public String format(LogRecord record) {
    String json = line(record, LogLine.MAX_MESSAGE, LogLine.MAX_FIELD, LogLine.MAX_ERROR);
    if (json.length() > LogLine.MAX) {
      // JSON escapes (six characters for a control character) lengthen what was cut: keep only
      // each value's length then, which no escape can lengthen past the bound.
      json = line(record, 0, 0, 0);
    }
    return json + System.lineSeparator();
  }

  private static String line(LogRecord record, int message, int field, int error) {
    ObjectNode line = JSON.createObjectNode();
    line.put("time", record.getInstant().toString());
    line.put("level", LogLevels.name(record.getLevel()));
    line.put("logger", record.getLoggerName());
    line.put("message", LogLine.cut(LogFields.message(record), message));
    LogFields.of(record).forEach((name, value) -> line.put(name, LogLine.cut(value, field)));
    if (record.getThrown() != null) {
      line.put("error", LogLine.cut(LogLevels.describe(record.getThrown()), error));
    }
    return JSON.writeValueAsString(line);
  }
}
