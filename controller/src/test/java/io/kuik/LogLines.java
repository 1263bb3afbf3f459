package io.kuik;

import java.text.MessageFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The lines one java.util.logging logger writes while a test runs, every level, each as {@code
 * LEVEL message} with its parameters filled in, kept here and not passed on to the build's output;
 * closing puts the logger back as it was. Keeps the logger itself: java.util.logging holds loggers
 * weakly, and a collected one loses its level.
 */
public final class LogLines implements AutoCloseable {

  private final Logger logger;
  private final Level before;
  private final boolean parents;
  private final List<LogRecord> records = new CopyOnWriteArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          records.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  private LogLines(Logger logger, Level level) {
    this.logger = logger;
    this.before = logger.getLevel();
    this.parents = logger.getUseParentHandlers();
    logger.setLevel(level);
    logger.setUseParentHandlers(false);
    logger.addHandler(capture);
  }

  /** Captures what the logger named after {@code owner} writes, from now until closed. */
  public static LogLines of(Class<?> owner) {
    return of(owner, Level.ALL);
  }

  /** The same, at {@code level} and above only. */
  public static LogLines of(Class<?> owner, Level level) {
    return new LogLines(Logger.getLogger(owner.getName()), level);
  }

  /** Every record so far, oldest first: its level, its thrown exception. */
  public List<LogRecord> records() {
    return List.copyOf(records);
  }

  /** Forgets every line so far. */
  public void clear() {
    records.clear();
  }

  /** Every line so far, oldest first. */
  public List<String> all() {
    return records.stream()
        .map(
            r ->
                r.getLevel()
                    + " "
                    + (r.getParameters() == null
                        ? r.getMessage()
                        : MessageFormat.format(r.getMessage(), r.getParameters())))
        .toList();
  }

  /** The lines so far that contain {@code text}. */
  public List<String> containing(String text) {
    return all().stream().filter(line -> line.contains(text)).toList();
  }

  @Override
  public void close() {
    logger.removeHandler(capture);
    logger.setUseParentHandlers(parents);
    logger.setLevel(before);
  }
}
