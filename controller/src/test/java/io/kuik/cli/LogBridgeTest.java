package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import io.kuik.syncer.Pair;
import io.kuik.webhook.AdmittedPod;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Both layouts of the log, as the commands write them on standard error. */
class LogBridgeTest {

  private static final Instant AT = Instant.parse("2026-01-02T03:04:05.006Z");

  /** What {@code format} writes for {@code record} on standard error. */
  private static synchronized String write(LogFormat format, LogRecord record) {
    java.io.PrintStream err = System.err;
    java.io.ByteArrayOutputStream written = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(written, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      new LogBridge(format).publish(record);
    } finally {
      System.setErr(err);
    }
    return written.toString(java.nio.charset.StandardCharsets.UTF_8);
  }

  private static JsonNode json(LogRecord record) {
    return JsonMapper.builder().build().readTree(write(LogFormat.json, record));
  }

  private static LogRecord record(Level level, String message, Object... parameters) {
    LogRecord record = new LogRecord(level, message);
    record.setInstant(AT);
    record.setLoggerName("io.kuik.syncer.SecretSyncer");
    record.setParameters(parameters);
    return record;
  }

  /** The build once printed lines of 200,228 characters: a whole invalid resource. */
  @ParameterizedTest
  @ValueSource(strings = {"json", "text"})
  void noLineIsLongerThanTwoThousandCharactersAndACutValueGivesItsLength(LogFormat format) {
    String huge = "spec.alternatives[0]: is required; ".repeat(6_000);
    LogRecord record = record(Level.WARNING, "ImageAlternative/acme is invalid: {0}", huge);
    IllegalStateException failure = new IllegalStateException("refused: " + "x".repeat(50_000));
    record.setThrown(failure);

    String line = write(format, record);

    assertEquals(1, line.strip().lines().count());
    assertTrue(line.strip().length() <= LogLine.MAX, line.length() + " characters");
    assertTrue(line.contains("ImageAlternative/acme is invalid: spec.alternatives[0]"), line);
    int full = ("ImageAlternative/acme is invalid: " + huge).length();
    assertTrue(line.contains("(" + full + " characters in all)"), line);
    int error = LogLine.describe(failure).length();
    assertTrue(line.contains("(" + error + " characters in all)"), line);
  }

  @Test
  void jsonStaysWithinTheBoundWhenEscapesLengthenTheMessage() {
    String controls = "\u0001".repeat(5_000);

    String line = write(LogFormat.json, record(Level.WARNING, "bytes {0}", controls));

    assertTrue(line.strip().length() <= LogLine.MAX, line.length() + " characters");
    assertTrue(line.contains("(5006 characters in all)"), line);
  }

  @Test
  void aValueIsCutToTheLimitWithItsLength() {
    assertEquals("abc", LogLine.cut("abc", 3));
    assertEquals("… (4 characters in all)", LogLine.cut("abcd", 3));
    assertEquals("a".repeat(25) + "… (100 characters in all)", LogLine.cut("a".repeat(100), 50));
    assertEquals("\"".repeat(12) + "… (100 characters in all)", LogLine.cut("\"".repeat(100), 50));
  }

  @Test
  void aCutNeverSplitsASurrogatePairAndOnlyControlCharactersAreEscapedLong() {
    String value = "a".repeat(14) + "\uD83D\uDE00" + "b".repeat(85);

    assertEquals("a".repeat(14) + "… (101 characters in all)", LogLine.cut(value, 40));
    assertEquals(
        "a".repeat(13) + "\uD83D\uDE00" + "… (100 characters in all)",
        LogLine.cut("a".repeat(13) + "\uD83D\uDE00" + "b".repeat(85), 40));
    assertEquals(1, LogLine.jsonLength(" "));
    assertEquals(6, LogLine.jsonLength("\u001f"));
    assertEquals(4, LogLine.jsonLength("\"\\"));
  }

  @Test
  void jsonIsOneEcsObjectPerLine() {
    String line =
        write(
            LogFormat.json,
            record(Level.WARNING, "apply of {0} refused", "ImageAlternative/acme@team-a"));

    assertTrue(line.endsWith(System.lineSeparator()));
    assertEquals(1, line.strip().lines().count());
    JsonNode json = JsonMapper.builder().build().readTree(line);
    assertEquals("2026-01-02T03:04:05.006Z", json.get("@timestamp").asString());
    assertTrue(json.get("ecs.version").asString().matches("[0-9]+\\.[0-9]+\\.[0-9]+"), line);
    assertEquals("WARN", json.get("log.level").asString());
    assertEquals("io.kuik.syncer.SecretSyncer", json.get("log.logger").asString());
    assertEquals(Thread.currentThread().getName(), json.get("process.thread.name").asString());
    assertEquals("apply of ImageAlternative/acme@team-a refused", json.get("message").asString());
    assertEquals(6, json.size(), line);
  }

  @Test
  void jsonCarriesThePairsNamespaceNameKindAndPairAsFields() {
    Pair pair = new Pair(new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme"), "team-a");

    JsonNode json =
        json(
            record(
                Level.WARNING, "apply of {0} refused, retry in {1}", pair, Duration.ofSeconds(64)));

    assertEquals("team-a", json.get("namespace").asString());
    assertEquals("acme", json.get("name").asString());
    assertEquals("ImageAlternative", json.get("kind").asString());
    assertEquals("ImageAlternative/acme@team-a", json.get("pair").asString());
    assertEquals(
        "apply of ImageAlternative/acme@team-a refused, retry in 1m4s",
        json.get("message").asString());
  }

  @Test
  void jsonCarriesAnAdmittedPodAsNamespaceAndPod() {
    JsonNode json = json(record(Level.INFO, "admission {0}", new AdmittedPod("team-a", "web-*")));

    assertEquals("team-a", json.get("namespace").asString());
    assertEquals("web-*", json.get("pod").asString());
    assertEquals("INFO", json.get("log.level").asString());
    assertEquals("admission team-a/web-*", json.get("message").asString());
  }

  @ParameterizedTest(name = "if the duration is {0}, expect {1}")
  @CsvSource({"PT1M4S, 1m4s", "PT15M, 15m", "PT0.5S, 500ms"})
  void durationParametersAreWrittenAsTheFlagsWriteThem(String iso, String written) {
    assertTrue(
        write(LogFormat.text, record(Level.INFO, "retry in {0}", Duration.parse(iso)))
            .contains("retry in " + written));
  }

  @Test
  void jsonCarriesAFailureOnTheSameLine() {
    LogRecord record = record(Level.SEVERE, "the informers could not start");
    record.setThrown(new IllegalStateException("403\nForbidden", new RuntimeException("cause")));

    String line = write(LogFormat.json, record);

    assertEquals(1, line.strip().lines().count());
    JsonNode json = JsonMapper.builder().build().readTree(line);
    assertEquals("ERROR", json.get("log.level").asString());
    assertEquals("java.lang.IllegalStateException", json.get("error.type").asString());
    assertEquals(
        "java.lang.IllegalStateException: 403 Forbidden <- java.lang.RuntimeException: cause",
        json.get("error.message").asString());
    assertTrue(
        write(LogFormat.text, record)
            .endsWith(
                "the informers could not start error=java.lang.IllegalStateException: 403"
                    + " Forbidden <- java.lang.RuntimeException: cause"
                    + System.lineSeparator()));
  }

  @Test
  void textIsOneLineEvenForAMultiLineMessage() {
    String line = write(LogFormat.text, record(Level.INFO, "first\nsecond"));

    assertEquals(
        "2026-01-02T03:04:05.006Z INFO  io.kuik.syncer.SecretSyncer first second"
            + System.lineSeparator(),
        line);
  }

  @Test
  void theFormatAConfigurationFileNamesIsTextUnlessItSaysJson() {
    assertEquals(LogFormat.text, LogBridge.formatOf(null));
    assertEquals(LogFormat.text, LogBridge.formatOf(" "));
    assertEquals(LogFormat.json, LogBridge.formatOf(" json "));
    assertEquals(LogFormat.text, LogBridge.formatOf("text"));
  }

  @Test
  void eachFormatHasItsOwnLayout() {
    assertTrue(
        LogBridge.newLayout(LogFormat.json)
            instanceof org.apache.logging.log4j.layout.template.json.JsonTemplateLayout);
    assertEquals(
        LogBridge.TEXT,
        ((org.apache.logging.log4j.core.layout.PatternLayout) LogBridge.newLayout(LogFormat.text))
            .getConversionPattern());
  }

  @Test
  void theLevelsUnderInfoAreDebugThenTrace() {
    assertEquals(org.apache.logging.log4j.Level.DEBUG, LogBridge.level(Level.FINE));
    assertEquals(org.apache.logging.log4j.Level.DEBUG, LogBridge.level(Level.CONFIG));
    assertEquals(org.apache.logging.log4j.Level.TRACE, LogBridge.level(Level.FINER));
    assertEquals(org.apache.logging.log4j.Level.TRACE, LogBridge.level(Level.FINEST));
  }

  /**
   * Each line reaches standard error as it is published, and a flush of the handler flushes it,
   * even when standard error buffers (a pipe): a process that stops right after keeps its lines.
   */
  @Test
  void eachLineIsFlushedAsItIsWrittenAndAFlushFlushesStandardError() {
    java.io.PrintStream err = System.err;
    java.io.ByteArrayOutputStream reached = new java.io.ByteArrayOutputStream();
    java.io.PrintStream buffered =
        new java.io.PrintStream(
            new java.io.BufferedOutputStream(reached, 1 << 16),
            false,
            java.nio.charset.StandardCharsets.UTF_8);
    synchronized (LogBridgeTest.class) {
      System.setErr(buffered);
      try {
        LogBridge bridge = new LogBridge(LogFormat.text);
        bridge.publish(record(Level.WARNING, "written at once"));
        assertTrue(reached.toString(java.nio.charset.StandardCharsets.UTF_8).contains("written"));

        buffered.print("pending");
        bridge.flush();
        assertTrue(reached.toString(java.nio.charset.StandardCharsets.UTF_8).endsWith("pending"));
      } finally {
        System.setErr(err);
      }
    }
  }
}
