package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.System.Logger.Level;
import java.text.MessageFormat;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** A failure that repeats across subjects: told when it starts, summarised, told when it ends. */
class RepeatedFailuresTest {

  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /** A System.Logger that keeps every line, with its level. */
  static final class Lines implements System.Logger {
    record Line(Level level, String text) {}

    final List<Line> lines = new ArrayList<>();

    @Override
    public String getName() {
      return "test";
    }

    @Override
    public boolean isLoggable(Level level) {
      return true;
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
      lines.add(new Line(level, message));
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
      lines.add(new Line(level, MessageFormat.format(format, params)));
    }

    @Override
    public void log(Level level, Supplier<String> message) {
      lines.add(new Line(level, message.get()));
    }

    List<Line> atOrAbove(Level level) {
      return lines.stream().filter(l -> l.level().getSeverity() >= level.getSeverity()).toList();
    }
  }

  private final Lines log = new Lines();
  private final RepeatedFailures applies = new RepeatedFailures(log, "Secret applies", "pairs");

  private static Instant at(long seconds) {
    return T0.plusSeconds(seconds);
  }

  @Test
  void warnsOnceWhenFailuresStartThenEachFailureAtDebug() {
    applies.failed("acme@team-a", "503 ServiceUnavailable", "try later", at(0), at(1));
    applies.failed("acme@team-b", "503 ServiceUnavailable", "try later", at(0), at(1));
    applies.failed("acme@team-a", "503 ServiceUnavailable", "try later", at(1), at(3));

    List<Lines.Line> shown = log.atOrAbove(Level.INFO);
    assertEquals(1, shown.size(), shown.toString());
    assertEquals(Level.WARNING, shown.get(0).level());
    assertEquals(
        "Secret applies failing: acme@team-a: 503 ServiceUnavailable: try later, retry in 1s."
            + " Until none fails: a summary every 1m, each failure at debug",
        shown.get(0).text());
    assertEquals(3, log.lines.size(), "each failure at debug but the first");
  }

  @Test
  void aNewAnswerWhileFailingIsToldOnceToo() {
    applies.failed("acme@team-a", "503 ServiceUnavailable", "try later", at(0), at(1));
    applies.failed("acme@team-b", "429 TooManyRequests", "slow down", at(2), at(3));
    applies.failed("acme@team-c", "429 TooManyRequests", "slow down", at(3), at(4));

    List<Lines.Line> shown = log.atOrAbove(Level.INFO);
    assertEquals(2, shown.size(), shown.toString());
    assertTrue(
        shown.get(1).text().startsWith("Secret applies failing with another answer: acme@team-b"),
        shown.get(1).text());
  }

  @Test
  void summarisesAtMostOncePerIntervalWithCountsAnswersAndTheNextRetry() {
    applies.failed("a", "503 ServiceUnavailable", "x", at(0), at(1));
    applies.failed("b", "503 ServiceUnavailable", "x", at(30), at(90));
    applies.failed("c", "no answer from the API server", "ConnectException", at(59), at(70));
    applies.tick(at(59));
    assertEquals(2, log.atOrAbove(Level.INFO).size(), "no summary before a minute");

    applies.failed("a", "503 ServiceUnavailable", "x", at(61), at(65));
    applies.tick(at(62));
    applies.tick(at(100));

    List<Lines.Line> shown = log.atOrAbove(Level.INFO);
    assertEquals(3, shown.size(), shown.toString());
    assertEquals(
        "Secret applies still failing after 1m1s: 3 pairs (503 ServiceUnavailable 2, no answer"
            + " from the API server 1); 4 failures in the last 1m1s; next retry in 4s",
        shown.get(2).text());
  }

  @Test
  void saysOnceWhenTheLastFailingSubjectSucceeds() {
    applies.failed("a", "503 ServiceUnavailable", "x", at(0), at(1));
    applies.failed("b", "503 ServiceUnavailable", "x", at(0), at(1));
    applies.succeeded("a", at(5));
    assertTrue(applies.failing());
    applies.succeeded("b", at(7));
    applies.succeeded("c", at(8)); // never failed: nothing to say

    assertFalse(applies.failing());
    List<Lines.Line> shown = log.atOrAbove(Level.INFO);
    assertEquals(2, shown.size(), shown.toString());
    assertEquals(Level.INFO, shown.get(1).level());
    assertEquals(
        "Secret applies no longer failing after 7s: 2 pairs succeeded again; 2 failures in all",
        shown.get(1).text());
  }

  @Test
  void subjectsThatGoAwayEndTheStoryWithoutClaimingSuccess() {
    applies.failed("a", "403 Forbidden", "namespace is being terminated", at(0), at(1));
    applies.forget("a", at(3));

    assertEquals(
        "Secret applies no longer failing after 3s: 1 pair gone; 1 failure in all",
        log.atOrAbove(Level.INFO).get(1).text());
  }

  @Test
  void workThatIsNotRetriedEndsAtTheFirstSuccessWithWhatWasDropped() {
    RepeatedFailures events = new RepeatedFailures(log, "Events", "Events");
    events.failed("the A event on x", "503 ServiceUnavailable", "later", at(0), null);
    events.failed("the B event on y", "503 ServiceUnavailable", "later", at(2), null);
    events.anySucceeded(at(4));

    List<Lines.Line> shown = log.atOrAbove(Level.INFO);
    assertEquals(
        "Events failing: the A event on x: 503 ServiceUnavailable: later. Until none fails: a"
            + " summary every 1m, each failure at debug",
        shown.get(0).text());
    assertEquals(
        "Events no longer failing after 4s: 2 Events dropped; 2 failures in all",
        shown.get(1).text());
  }

  @Test
  void aLaterOutageIsANewStory() {
    applies.failed("a", "503 ServiceUnavailable", "x", at(0), at(1));
    applies.succeeded("a", at(1));
    applies.failed("a", "503 ServiceUnavailable", "x", at(100), at(101));

    List<Lines.Line> shown = log.atOrAbove(Level.INFO);
    assertEquals(3, shown.size(), shown.toString());
    assertTrue(shown.get(2).text().startsWith("Secret applies failing: a"), shown.toString());
  }

  /**
   * 10,000 subjects refused every time they are tried, each on its own backoff (1 s doubling to 5
   * minutes), for 10 minutes, then accepted as they come back: a few dozen lines at most, the first
   * a warning and the last the end.
   */
  @Test
  void anOutageOverTenThousandSubjectsWritesAFewDozenLines() {
    int subjects = 10_000;
    java.util.PriorityQueue<long[]> retries =
        new java.util.PriorityQueue<>((x, y) -> Long.compare(x[0], y[0]));
    for (int i = 0; i < subjects; i++) {
      retries.add(new long[] {i % 500, i, 0}); // first tries spread over 500 s, as 20 writes/s
    }
    Duration outage = Duration.ofMinutes(10);
    long failures = 0;
    while (!retries.isEmpty()) {
      long[] next = retries.poll();
      Instant now = T0.plusMillis(next[0] * 1000);
      String subject = "pair-" + next[1];
      if (now.isBefore(T0.plus(outage))) {
        int attempts = (int) next[2] + 1;
        long backoff =
            Retry.backoff(attempts, Duration.ofSeconds(1), Duration.ofMinutes(5)).toSeconds();
        applies.failed(
            subject, "503 ServiceUnavailable", "try later", now, now.plusSeconds(backoff));
        retries.add(new long[] {next[0] + backoff, next[1], attempts});
        failures++;
      } else {
        applies.succeeded(subject, now);
      }
    }

    List<Lines.Line> shown = log.atOrAbove(Level.INFO);
    assertTrue(failures > 50_000, "the flood: " + failures + " refusals");
    assertTrue(shown.size() <= 30, shown.size() + " lines: " + shown);
    assertEquals(Level.WARNING, shown.get(0).level());
    assertEquals(Level.INFO, shown.get(shown.size() - 1).level());
    assertTrue(shown.get(shown.size() - 1).text().contains("10,000 pairs succeeded again"));
    assertTrue(shown.stream().allMatch(l -> l.text().length() < 400), "short lines: " + shown);
  }
}
