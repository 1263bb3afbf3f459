package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/**
 * The room a log line leaves its message: {@link LogLine#MAX} less what the line holds beside it
 * (the fixed part, the logger's and the thread's names, each field with its key), so that long
 * fields shorten the message rather than lengthen the line; and the fields a parameter carries.
 */
class LogLineTest {

  /** A field as JSON writes it beside the message: {@code ,"key":"value"} and its spaces. */
  private static final int FIELD_SYNTAX = 6;

  @Test
  void aMessageBesideLongFieldsIsCutToTheRoomTheyLeave() {
    String logger = "io.kuik.syncer." + "L".repeat(700);
    LogRecord record = new LogRecord(Level.WARNING, "{0} " + "m".repeat(3_000));
    record.setLoggerName(logger);
    record.setParameters(new Object[] {new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme")});
    record.setThrown(new IllegalStateException("refused"));

    LogLine line = LogLine.of(record);

    assertEquals(
        Map.of(
            "kind", "ImageAlternative",
            "name", "acme",
            "error.type", "java.lang.IllegalStateException",
            "error.message", "java.lang.IllegalStateException: refused"),
        line.fields());
    int fields =
        ("kind".length() + FIELD_SYNTAX + "ImageAlternative".length())
            + ("name".length() + FIELD_SYNTAX + "acme".length())
            + ("error.type".length() + FIELD_SYNTAX + "java.lang.IllegalStateException".length())
            + ("error.message".length()
                + FIELD_SYNTAX
                + "java.lang.IllegalStateException: refused".length());
    int room =
        LogLine.MAX
            - LogLine.FIXED
            - logger.length()
            - Thread.currentThread().getName().length()
            - fields;
    assertTrue(room < LogLine.MAX_MESSAGE, "the fields, not MAX_MESSAGE, bound it: " + room);
    assertEquals(room, line.message().length(), line.message());
    int whole = LogFields.message(record).length();
    assertTrue(line.message().endsWith("… (" + whole + " characters in all)"), line.message());
  }

  @Test
  void aMessageIsCutToMaxMessageWhenTheFieldsLeaveMore() {
    LogRecord record = new LogRecord(Level.WARNING, "m".repeat(3_000));
    record.setLoggerName("io.kuik.syncer.SecretSyncer");

    assertEquals(LogLine.MAX_MESSAGE, LogLine.of(record).message().length());
  }

  @Test
  void aMessageThatIsNotAPatternIsWrittenAsItIs() {
    LogRecord record = new LogRecord(Level.INFO, "a {x} b {0}");
    record.setParameters(new Object[] {"value"});

    assertEquals("a {x} b {0}", LogFields.message(record));
  }
}
