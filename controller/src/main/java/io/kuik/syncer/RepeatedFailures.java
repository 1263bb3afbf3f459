package io.kuik.syncer;

import io.kuik.model.Durations;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The log of one kind of work that fails for many subjects at once (Secret applies for pairs,
 * status writes for resources, lists and watches for informers), as an operator reads it during an
 * incident (docs/operations.md#logs): a WARN when it starts failing, and again for each new answer
 * while it lasts; a summary at most once per interval while any subject still fails (how many,
 * which answers, when the next retry goes); an INFO once no subject fails any more. Each failure
 * itself is logged at DEBUG. An API outage over 10,000 pairs so writes a few lines, not one per
 * pair per retry.
 *
 * <p>Sans-IO: every call brings its time, and a summary falls due at the first call after the
 * interval (a failure, a success or a {@link #tick}), so a quiet outage is summarised at its next
 * retry. Thread-safe, for the executors that report from their own threads.
 */
public final class RepeatedFailures {

  /** How often a failure that lasts is summarised, at most. */
  public static final Duration INTERVAL = Duration.ofMinutes(1);

  private record Failure(String answer, Instant retryAt) {}

  private final System.Logger log;
  private final String work;
  private final String subjects;
  private final Duration interval;

  private final Map<Object, Failure> failing = new HashMap<>();
  private final Set<String> answersSeen = new HashSet<>();
  private Instant since;
  private Instant lastSummary;
  private long failuresSinceSummary;
  private long failuresInAll;
  private long recovered;
  private long gone;
  private long dropped;

  /**
   * @param work what fails, as the subject of a sentence ({@code "Secret applies"})
   * @param subjects what it fails for, in the plural ({@code "pairs"})
   */
  public RepeatedFailures(System.Logger log, String work, String subjects) {
    this(log, work, subjects, INTERVAL);
  }

  RepeatedFailures(System.Logger log, String work, String subjects, Duration interval) {
    this.log = Objects.requireNonNull(log, "log");
    this.work = Objects.requireNonNull(work, "work");
    this.subjects = Objects.requireNonNull(subjects, "subjects");
    this.interval = Objects.requireNonNull(interval, "interval");
  }

  /**
   * {@code subject} failed at {@code now} with {@code answer} (a short, stable phrase such as
   * {@code 503 ServiceUnavailable}: the summaries count subjects by it) and {@code detail} (the
   * message that goes with it); it is tried again at {@code retryAt}, or when it can be, if null.
   */
  public synchronized void failed(
      Object subject, String answer, String detail, Instant now, Instant retryAt) {
    failing.put(subject, new Failure(answer, retryAt));
    failuresInAll++;
    failuresSinceSummary++;
    boolean starts = since == null;
    if (starts) {
      since = now;
      lastSummary = now;
    }
    String retry = retryAt == null ? "" : ", retry in " + Durations.text(between(now, retryAt));
    if (answersSeen.add(answer)) {
      log.log(
          Level.WARNING,
          "{0} {1}: {2}: {3}: {4}{5}. Until none fails: a summary every {6}, each failure at"
              + " debug",
          work,
          starts ? "failing" : "failing with another answer",
          subject,
          answer,
          detail,
          retry,
          Durations.text(interval));
      return;
    }
    log.log(Level.DEBUG, "{0} failing: {1}: {2}: {3}{4}", work, subject, answer, detail, retry);
    tick(now);
  }

  /** {@code subject} succeeded at {@code now}: the last failing one ends the story. */
  public synchronized void succeeded(Object subject, Instant now) {
    if (failing.remove(subject) != null) {
      recovered++;
      endIfNoneFails(now);
    }
    tick(now);
  }

  /** {@code subject} is gone (its pair, its resource): it no longer counts as failing. */
  public synchronized void forget(Object subject, Instant now) {
    if (failing.remove(subject) != null) {
      gone++;
      endIfNoneFails(now);
    }
  }

  /**
   * For work that is not retried (an Event is dropped when it cannot be recorded): something
   * succeeded at {@code now}, so none fails any more; the failed ones count as dropped.
   */
  public synchronized void anySucceeded(Instant now) {
    dropped += failing.size();
    failing.clear();
    endIfNoneFails(now);
  }

  /** Writes the summary if one is due at {@code now}. */
  public synchronized void tick(Instant now) {
    if (since == null || now.isBefore(lastSummary.plus(interval))) {
      return;
    }
    Instant nextRetry =
        failing.values().stream()
            .map(Failure::retryAt)
            .filter(Objects::nonNull)
            .min(Instant::compareTo)
            .orElse(null);
    log.log(
        Level.WARNING,
        "{0} still failing after {1}: {2} ({3}); {4} in the last {5}{6}",
        work,
        Durations.text(between(since, now)),
        count(failing.size(), subjects),
        answers(),
        count(failuresSinceSummary, "failures"),
        Durations.text(between(lastSummary, now)),
        nextRetry == null
            ? ""
            : nextRetry.isAfter(now)
                ? "; next retry in " + Durations.text(between(now, nextRetry))
                : "; retries due now");
    lastSummary = now;
    failuresSinceSummary = 0;
  }

  /** Whether some subject fails now. */
  public synchronized boolean failing() {
    return !failing.isEmpty();
  }

  private void endIfNoneFails(Instant now) {
    if (!failing.isEmpty() || since == null) {
      return;
    }
    List<String> how = new ArrayList<>();
    if (recovered > 0) {
      how.add(count(recovered, subjects) + " succeeded again");
    }
    if (gone > 0) {
      how.add(count(gone, subjects) + " gone");
    }
    if (dropped > 0) {
      how.add(count(dropped, subjects) + " dropped");
    }
    log.log(
        Level.INFO,
        "{0} no longer failing after {1}: {2}; {3} in all",
        work,
        Durations.text(between(since, now)),
        String.join(", ", how),
        count(failuresInAll, "failures"));
    since = null;
    lastSummary = null;
    answersSeen.clear();
    failuresSinceSummary = 0;
    failuresInAll = 0;
    recovered = 0;
    gone = 0;
    dropped = 0;
  }

  /** The failing subjects by their last answer, the most frequent first. */
  private String answers() {
    Map<String, Long> byAnswer =
        failing.values().stream()
            .collect(Collectors.groupingBy(Failure::answer, TreeMap::new, Collectors.counting()));
    return byAnswer.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .map(e -> e.getKey() + " " + String.format("%,d", e.getValue()))
        .collect(Collectors.joining(", "));
  }

  /** {@code 1 pair}, {@code 10,000 pairs}. */
  private static String count(long n, String plural) {
    return String.format("%,d", n)
        + " "
        + (n == 1 && plural.endsWith("s") ? plural.substring(0, plural.length() - 1) : plural);
  }

  private static Duration between(Instant from, Instant to) {
    return Duration.between(from, to);
  }
}
