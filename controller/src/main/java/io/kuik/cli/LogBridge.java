package io.kuik.cli;

import java.io.PrintStream;
import java.util.EnumMap;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import org.apache.logging.log4j.core.Layout;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.NullConfiguration;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.logging.log4j.core.time.MutableInstant;
import org.apache.logging.log4j.layout.template.json.JsonTemplateLayout;
import org.apache.logging.log4j.message.SimpleMessage;
import org.apache.logging.log4j.util.SortedArrayStringMap;

/**
 * Hands every java.util.logging record of the process (kuik's own, through java.util.logging and
 * System.Logger, and fabric8's, through slf4j-jdk14) to log4j2's layouts, which write it on
 * standard error: ECS JSON through JsonTemplateLayout's stock {@code EcsLayout.json} ({@code
 * @timestamp}, {@code log.level}, {@code log.logger}, {@code message}, {@code
 * process.thread.name}, {@code error.type}, {@code error.message}, and the fields of {@link
 * LogFields} beside them), or one text line through PatternLayout. The levels stay
 * java.util.logging's ({@link LogSetup}, the tests' logging.properties): log4j2 only writes.
 * Every value is cut so that a line keeps within {@link LogLine#MAX} characters.
 *
 * <p>Public, with a public constructor, so that a java.util.logging configuration file can name it,
 * with {@code io.kuik.cli.LogBridge.format = text} (the default) or {@code json}.
 */
public final class LogBridge extends Handler {

  /** One event per line: {@code <time> <LEVEL> <logger> <message>[ error=<failure>]}. */
  static final String TEXT =
      "%d{yyyy-MM-dd'T'HH:mm:ss.SSS'Z'}{UTC} %-5level %logger %message"
          + "%notEmpty{ error=%X{error.message}}%n";

  private static final Map<LogFormat, Layout<?>> LAYOUTS = new EnumMap<>(LogFormat.class);

  private final Layout<?> layout;

  /** As a java.util.logging configuration file names it. */
  public LogBridge() {
    this(formatOf(LogManager.getLogManager().getProperty(LogBridge.class.getName() + ".format")));
  }

  static LogFormat formatOf(String property) {
    return property == null || property.isBlank()
        ? LogFormat.text
        : LogFormat.valueOf(property.strip());
  }

  LogBridge(LogFormat format) {
    layout = layout(format);
    setLevel(Level.ALL);
  }

  @Override
  public void publish(LogRecord record) {
    if (record == null || !isLoggable(record)) {
      return;
    }
    LogLine line = LogLine.of(record);
    SortedArrayStringMap fields = new SortedArrayStringMap();
    line.fields().forEach(fields::putValue);
    MutableInstant at = new MutableInstant();
    at.initFromEpochSecond(record.getInstant().getEpochSecond(), record.getInstant().getNano());
    byte[] bytes =
        layout.toByteArray(
            Log4jLogEvent.newBuilder()
                .setLoggerName(record.getLoggerName() == null ? "" : record.getLoggerName())
                .setLevel(level(record.getLevel()))
                .setMessage(new SimpleMessage(line.message()))
                .setContextData(fields)
                .setInstant(at)
                .setThreadName(Thread.currentThread().getName())
                .build());
    // Whole lines, one write each, to the standard error of the moment (tests swap it).
    PrintStream err = System.err;
    synchronized (err) {
      err.write(bytes, 0, bytes.length);
      err.flush();
    }
  }

  @Override
  public void flush() {
    System.err.flush();
  }

  @Override
  public void close() {
    // Nothing of its own to release; kept until the JVM halts (ShutdownLogManager).
  }

  /** java.util.logging's levels under the names log collectors know. */
  static org.apache.logging.log4j.Level level(Level level) {
    int value = level.intValue();
    if (value >= Level.SEVERE.intValue()) {
      return org.apache.logging.log4j.Level.ERROR;
    }
    if (value >= Level.WARNING.intValue()) {
      return org.apache.logging.log4j.Level.WARN;
    }
    if (value >= Level.INFO.intValue()) {
      return org.apache.logging.log4j.Level.INFO;
    }
    if (value >= Level.FINE.intValue()) {
      return org.apache.logging.log4j.Level.DEBUG;
    }
    return org.apache.logging.log4j.Level.TRACE;
  }

  /**
   * The layout of {@code format}, used on its own: no appender, no logger context (whose
   * configuration listeners need java.desktop's java.beans, which the image leaves out), no
   * configuration file looked up, no shutdown hook.
   */
  private static synchronized Layout<?> layout(LogFormat format) {
    return LAYOUTS.computeIfAbsent(format, LogBridge::newLayout);
  }

  /** A new layout of {@code format}; {@link #layout} keeps one per format for the process. */
  static Layout<?> newLayout(LogFormat format) {
    Configuration configuration = new NullConfiguration();
    return format == LogFormat.json
        ? JsonTemplateLayout.newBuilder()
            .setConfiguration(configuration)
            .setEventTemplateUri("classpath:EcsLayout.json")
            .build()
        : PatternLayout.newBuilder().withConfiguration(configuration).withPattern(TEXT).build();
  }
}
