package io.kuik.cli;

import java.util.logging.Formatter;
import java.util.logging.LogRecord;

/**
 * One line per event: {@code <time> <LEVEL> <logger> <message>}, and {@code error=<failure>} when
 * the event carries one. Line breaks inside a message are folded so that one event stays one line.
 */
final class TextLogFormatter extends Formatter {

  @Override
  public String format(LogRecord record) {
    StringBuilder line =
        new StringBuilder()
            .append(record.getInstant())
            .append(' ')
            .append(String.format("%-5s", LogLevels.name(record.getLevel())))
            .append(' ')
            .append(record.getLoggerName())
            .append(' ')
            .append(fold(LogFields.message(record)));
    if (record.getThrown() != null) {
      line.append(" error=").append(LogLevels.describe(record.getThrown()));
    }
    return line.append(System.lineSeparator()).toString();
  }

  private static String fold(String message) {
    return message == null ? "" : message.replace("\r", "").replace('\n', ' ');
  }
}
