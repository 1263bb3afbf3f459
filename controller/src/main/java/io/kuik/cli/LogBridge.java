package io.kuik.cli;

import java.util.EnumMap;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.config.builder.api.LayoutComponentBuilder;
import org.apache.logging.log4j.core.config.builder.impl.BuiltConfiguration;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.core.time.MutableInstant;
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

  private static final Map<LogFormat, LoggerConfig> WRITERS = new EnumMap<>(LogFormat.class);

  private final LoggerConfig writer;

  /** As a java.util.logging configuration file names it. */
  public LogBridge() {
    this(formatOf(LogManager.getLogManager().getProperty(LogBridge.class.getName() + ".format")));
  }

  private static LogFormat formatOf(String property) {
    return property == null || property.isBlank()
        ? LogFormat.text
        : LogFormat.valueOf(property.strip());
  }

  LogBridge(LogFormat format) {
    writer = writer(format);
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
    writer.log(
        Log4jLogEvent.newBuilder()
            .setLoggerName(record.getLoggerName() == null ? "" : record.getLoggerName())
            .setLevel(level(record.getLevel()))
            .setMessage(new SimpleMessage(line.message()))
            .setContextData(fields)
            .setInstant(at)
            .setThreadName(Thread.currentThread().getName())
            .build());
  }

  @Override
  public void flush() {
    // The console appender flushes every line.
  }

  @Override
  public void close() {
    // Shared by every bridge of the process, and kept until the JVM halts (ShutdownLogManager).
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
   * The writer of {@code format}: a log4j2 context of its own (no configuration file looked up, no
   * shutdown hook: the lines kuik writes while it stops must not be lost), one console appender
   * that follows {@code System.err}, the layout.
   */
  private static synchronized LoggerConfig writer(LogFormat format) {
    return WRITERS.computeIfAbsent(
        format,
        f -> {
          ConfigurationBuilder<BuiltConfiguration> builder =
              ConfigurationBuilderFactory.newConfigurationBuilder();
          builder
              .setConfigurationName("kuik-" + f)
              .setStatusLevel(org.apache.logging.log4j.Level.ERROR)
              .setShutdownHook("disable");
          LayoutComponentBuilder layout =
              f == LogFormat.json
                  ? builder
                      .newLayout("JsonTemplateLayout")
                      .addAttribute("eventTemplateUri", "classpath:EcsLayout.json")
                  : builder.newLayout("PatternLayout").addAttribute("pattern", TEXT);
          builder.add(
              builder
                  .newAppender("stderr", "Console")
                  .addAttribute("target", "SYSTEM_ERR")
                  .addAttribute("follow", true)
                  .add(layout));
          builder.add(
              builder
                  .newRootLogger(org.apache.logging.log4j.Level.ALL)
                  .add(builder.newAppenderRef("stderr")));
          LoggerContext context = new LoggerContext("kuik-" + f);
          builder.setLoggerContext(context);
          context.start(builder.build());
          return context.getConfiguration().getRootLogger();
        });
  }
}
