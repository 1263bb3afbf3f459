package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class LogFormattersTest {

  private static final Instant AT = Instant.parse("2026-01-02T03:04:05.006Z");

  private static LogRecord record(Level level, String message, Object... parameters) {
    LogRecord record = new LogRecord(level, message);
    record.setInstant(AT);
    record.setLoggerName("io.kuik.syncer.SecretSyncer");
    record.setParameters(parameters);
    return record;
  }

  @Test
  void jsonIsOneObjectPerLineWithTheFourFields() {
    String line =
        new JsonLogFormatter()
            .format(record(Level.WARNING, "apply of {0} refused", "ImageAlternative/acme@team-a"));

    assertTrue(line.endsWith(System.lineSeparator()));
    assertEquals(1, line.strip().lines().count());
    JsonNode json = JsonMapper.builder().build().readTree(line);
    assertEquals("2026-01-02T03:04:05.006Z", json.get("time").asString());
    assertEquals("WARN", json.get("level").asString());
    assertEquals("io.kuik.syncer.SecretSyncer", json.get("logger").asString());
    assertEquals("apply of ImageAlternative/acme@team-a refused", json.get("message").asString());
  }

  @Test
  void jsonCarriesAFailureOnTheSameLine() {
    LogRecord record = record(Level.SEVERE, "the informers could not start");
    record.setThrown(new IllegalStateException("403\nForbidden", new RuntimeException("cause")));

    String line = new JsonLogFormatter().format(record);

    assertEquals(1, line.strip().lines().count());
    JsonNode json = JsonMapper.builder().build().readTree(line);
    assertEquals("ERROR", json.get("level").asString());
    assertEquals(
        "java.lang.IllegalStateException: 403 Forbidden <- java.lang.RuntimeException: cause",
        json.get("error").asString());
  }

  @Test
  void textIsOneLineEvenForAMultiLineMessage() {
    String line = new TextLogFormatter().format(record(Level.INFO, "first\nsecond"));

    assertEquals(
        "2026-01-02T03:04:05.006Z INFO  io.kuik.syncer.SecretSyncer first second"
            + System.lineSeparator(),
        line);
  }
}
