package io.kuik.cli;

import java.util.logging.Formatter;
import java.util.logging.LogRecord;

/**
 * One line per event: {@code <time> <LEVEL> <logger> <message>}, and {@code error=<failure>} when
 * the event carries one. Line breaks inside a message are folded so that one event stays one line,
 * and a line never exceeds {@link LogLine#MAX} characters: longer values are cut, with their
 * length.
 *
 * <p>Public, with a public constructor, so that a java.util.logging configuration file can name it:
 * the tests' logging.properties do, so that a build prints what the CLIs print.
 */
public final class TextLogFormatter extends Formatter {

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
            .append(LogLine.cut(fold(LogFields.message(record)), LogLine.MAX_MESSAGE));
    if (record.getThrown() != null) {
      line.append(" error=")
          .append(LogLine.cut(fold(LogLevels.describe(record.getThrown())), LogLine.MAX_ERROR));
    }
    return line.append(System.lineSeparator()).toString();
  }

  private static String fold(String message) {
    return message == null ? "" : message.replace("\r", "").replace('\n', ' ');
  }
}
