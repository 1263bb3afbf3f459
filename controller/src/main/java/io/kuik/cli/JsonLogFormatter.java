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
 * nothing in kuik logs one.
 */
final class JsonLogFormatter extends Formatter {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Override
  public String format(LogRecord record) {
    ObjectNode line = JSON.createObjectNode();
    line.put("time", record.getInstant().toString());
    line.put("level", LogLevels.name(record.getLevel()));
    line.put("logger", record.getLoggerName());
    line.put("message", LogFields.message(record));
    LogFields.of(record).forEach(line::put);
    if (record.getThrown() != null) {
      line.put("error", LogLevels.describe(record.getThrown()));
    }
    return JSON.writeValueAsString(line) + System.lineSeparator();
  }
}
