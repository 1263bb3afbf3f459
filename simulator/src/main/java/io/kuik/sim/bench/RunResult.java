package io.kuik.sim.bench;

import io.kuik.sim.trace.Answer;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.trace.Target;
import io.kuik.sim.trace.Trace;
import io.kuik.sim.trace.TraceRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One contender's hour, read back from the trace: its requests by kind, the rate at steady state,
 * how long rewritten pods waited for their Secret, the burst after the restart, the busiest second;
 * what a user saw ({@link UserFigures}); the memory the contender itself held; and what the JVM
 * spent.
 *
 * @param simulated how much of the hour was simulated
 * @param rewrites rewritten pods created during the hour
 * @param rewritesBeforeSecret of them, those schedulable (created, or released from the gate) while
 *     their credential was not yet there for them (they start, and pull, before it)
 * @param gateMedian the median time a rewritten pod waited on the pull-secret gate (0 when not
 *     gated), over every rewrite released
 * @param gateP99 the same, 99th percentile
 * @param stillGated rewrites whose gate was never removed (deleted while gated, or at the end)
 * @param retainedMib the heap the contender held at the end of the hour (its caches and state)
 */
record RunResult(
    String name,
    int size,
    long writes,
    long noOps,
    long reads,
    long listsAndWatches,
    long watchEvents,
    long steadyPerHour,
    long totalPerHour,
    Duration latencyMedian,
    Duration latencyMax,
    int rewritesWithoutSecret,
    long restartWrites,
    Duration restartBurst,
    long peakWritesPerSecond,
    Duration simulated,
    int rewrites,
    int rewritesBeforeSecret,
    Duration gateMedian,
    Duration gateP99,
    int stillGated,
    UserFigures.Result figures,
    double retainedMib,
    Meter.Cost cost) {

  private static final Set<RequestKind> WRITES =
      Set.of(RequestKind.APPLY, RequestKind.CREATE, RequestKind.UPDATE, RequestKind.PATCH);

  static RunResult read(
      String name,
      Workload workload,
      Contender contender,
      Trace trace,
      Instant start,
      Duration simulated,
      List<Workload.Rewrite> rewrites,
      UserFigures.Result figures,
      double retainedMib,
      Meter.Cost cost) {
    List<TraceRecord.Request> mine = new ArrayList<>();
    for (TraceRecord.Request r : trace.requests()) {
      if (r.actor().equals(contender.actor())) {
        mine.add(r);
      }
    }
    long writes = 0;
    long noOps = 0;
    long reads = 0;
    long listsAndWatches = 0;
    long steady = 0;
    Instant steadyFrom = start.plus(steadyFrom(simulated));
    Map<Long, Long> perSecond = new HashMap<>();
    Map<Target, List<Instant>> writesByTarget = new HashMap<>();
    for (TraceRecord.Request r : mine) {
      if (!r.at().isBefore(steadyFrom)) {
        steady++;
      }
      if (WRITES.contains(r.kind())) {
        writes++;
        if (r.answer() instanceof Answer.Written written && written.noOp()) {
          noOps++;
        }
        perSecond.merge(r.at().getEpochSecond(), 1L, Long::sum);
        if (r.succeeded()) {
          writesByTarget.computeIfAbsent(r.target(), t -> new ArrayList<>()).add(r.at());
        }
      } else if (r.kind() == RequestKind.GET) {
        reads++;
      } else if (r.kind() == RequestKind.LIST || r.kind() == RequestKind.WATCH) {
        listsAndWatches++;
      }
    }
    long watchEvents = 0;
    for (TraceRecord record : trace.records()) {
      if (record instanceof TraceRecord.WatchDelivery d
          && d.fate() == TraceRecord.WatchDelivery.Fate.DELIVERED
          && d.owner().equals(contender.actor())) {
        watchEvents++;
      }
    }
    Duration steadyWindow = simulated.minus(steadyFrom(simulated));
    long steadyPerHour = steady * Duration.ofHours(1).toSeconds() / steadyWindow.toSeconds();
    long beforeSteady = mine.size() - steady;
    long totalPerHour =
        simulated.compareTo(Workload.LENGTH) >= 0
            ? mine.size()
            : beforeSteady
                + steady
                    * Workload.LENGTH.minus(steadyFrom(simulated)).toSeconds()
                    / steadyWindow.toSeconds();

    List<Duration> gated = new ArrayList<>();
    int stillGated = 0;
    for (Workload.Rewrite rewrite : rewrites) {
      if (rewrite.gated() == null) {
        stillGated++;
      } else {
        gated.add(rewrite.gated());
      }
    }
    Collections.sort(gated);
    List<Duration> waits = new ArrayList<>();
    int without = 0;
    for (Workload.Rewrite rewrite : rewrites) {
      if (rewrite.released() == null) {
        continue; // never schedulable: it never pulled
      }
      if (rewrite.ready()) {
        waits.add(Duration.ZERO);
        continue;
      }
      Target target = Target.secret(rewrite.namespace(), contender.secretFor(rewrite.index()));
      Instant first = null;
      for (Instant at : writesByTarget.getOrDefault(target, List.of())) {
        if (!at.isBefore(rewrite.at())) {
          first = at;
          break;
        }
      }
      if (first == null) {
        without++;
      } else {
        waits.add(Duration.between(rewrite.at(), first));
      }
    }
    Collections.sort(waits);

    Instant restart = start.plus(Workload.RESTART);
    long restartWrites = 0;
    Instant last = restart;
    if (simulated.compareTo(Workload.RESTART) > 0) {
      for (TraceRecord.Request r : mine) {
        if (!WRITES.contains(r.kind()) || r.at().isBefore(restart)) {
          continue;
        }
        // The restart's burst ends at the first two seconds without a write.
        if (Duration.between(last, r.at()).compareTo(Duration.ofSeconds(2)) > 0) {
          break;
        }
        restartWrites++;
        last = r.at();
      }
    }
    return new RunResult(
        name,
        workload.size(),
        writes,
        noOps,
        reads,
        listsAndWatches,
        watchEvents,
        steadyPerHour,
        totalPerHour,
        waits.isEmpty() ? null : waits.get(waits.size() / 2),
        waits.isEmpty() ? null : waits.get(waits.size() - 1),
        without,
        restartWrites,
        Duration.between(restart, last),
        perSecond.values().stream().mapToLong(Long::longValue).max().orElse(0),
        simulated,
        rewrites.size(),
        (int) rewrites.stream().filter(r -> r.released() != null && !r.ready()).count(),
        gated.isEmpty() ? null : gated.get(gated.size() / 2),
        gated.isEmpty() ? null : gated.get(Math.min(gated.size() - 1, gated.size() * 99 / 100)),
        stillGated,
        figures,
        retainedMib,
        cost);
  }

  /** Steady state: after the restart settled, or after the first minute of a short window. */
  private static Duration steadyFrom(Duration simulated) {
    return simulated.compareTo(Workload.LENGTH) >= 0
        ? Workload.STEADY_FROM
        : Duration.ofSeconds(60);
  }

  long requests() {
    return writes + reads + listsAndWatches;
  }
}
