package io.kuik.syncer;

import static io.kuik.syncer.SyncerHarness.alternative;
import static io.kuik.syncer.SyncerHarness.config;
import static io.kuik.syncer.SyncerHarness.repository;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.RewritePolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The syncer's log during an API outage over 10,000 pairs (docs/operations.md#logs): the core
 * refused every apply for 10 minutes, then accepted them. One warning when it starts, a summary a
 * minute at most, one line when the last pair is written: a few dozen lines, where one line per
 * pair and retry was tens of thousands.
 */
class OutageLogTest {

  static final int NAMESPACES = 10_000;

  // Kept in a field: java.util.logging holds loggers weakly, and a collected one loses its level.
  private final Logger syncerLogs = Logger.getLogger("io.kuik.syncer");
  private final List<LogRecord> lines = new ArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          if (isLoggable(record)) {
            lines.add(record);
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  private Level before;

  @BeforeEach
  void listen() {
    before = syncerLogs.getLevel();
    syncerLogs.setLevel(Level.INFO); // what the syncer logs by default; the tests keep WARNING
    capture.setLevel(Level.INFO);
    syncerLogs.addHandler(capture);
    syncerLogs.setUseParentHandlers(false); // counted here, not printed in the build's output
  }

  @AfterEach
  void stopListening() {
    syncerLogs.removeHandler(capture);
    syncerLogs.setUseParentHandlers(true);
    syncerLogs.setLevel(before);
  }

  @Test
  void anOutageOverTenThousandPairsIsToldInAFewDozenLines() {
    SyncerHarness cluster = SyncerHarness.withDefaults();
    cluster.source("acme-pull", config("quay.io/acme", "acme", "s3cret"));
    cluster.resource(
        alternative(
            "acme", RewritePolicy.ALWAYS, null, repository(0, "quay.io/acme/app", "acme-pull")));
    for (int i = 0; i < NAMESPACES; i++) {
      cluster.applyNamespace("team-" + i);
    }
    cluster.serverAnswers(
        secret -> new Answer.Refused(503, "ServiceUnavailable", "the server is unavailable"));
    cluster.start();
    cluster.advance(Duration.ofMinutes(10));
    long refused = cluster.applies().stream().filter(SyncerHarness.Apply::refused).count();

    cluster.serverAnswers(secret -> Answer.APPLIED);
    cluster.advance(Duration.ofMinutes(30));

    assertTrue(refused >= NAMESPACES, "every pair refused at least once: " + refused);
    List<String> shown =
        lines.stream()
            .map(
                r ->
                    r.getLevel()
                        + " "
                        + java.text.MessageFormat.format(r.getMessage(), r.getParameters()))
            .toList();
    assertTrue(shown.size() <= 40, shown.size() + " lines: " + String.join("\n", shown));
    assertEquals(Level.WARNING, lines.get(0).getLevel(), shown.get(0));
    LogRecord last = lines.get(lines.size() - 1);
    assertEquals(Level.INFO, last.getLevel());
    assertTrue(
        java.text.MessageFormat.format(last.getMessage(), last.getParameters())
            .matches(
                "Secret applies no longer failing after .*: [0-9,]+ pairs succeeded again; .*"),
        shown.toString());
    assertTrue(
        cluster.applies().stream().filter(a -> !a.refused()).count() >= NAMESPACES,
        "every pair written once the API server is back");
  }
}
