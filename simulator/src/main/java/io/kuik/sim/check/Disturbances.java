package io.kuik.sim.check;

import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.TraceRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The honest reasons, read from the trace, for the syncer to release a credential earlier or later
 * than the grace says. It restarted: its memory is lost, and a stopped syncer writes nothing. Its
 * view of the cluster may be stale: a watch event to it lost, a watch-fault or outage window open,
 * an incarnation still listing; each until {@code relist} after it ends. Its writes may fail: an
 * outage, admission-policy failure or policy-away window open, a request of it answered 429 or 5xx;
 * each until {@code retry} after it ends, the longest wait before the write is tried again.
 */
final class Disturbances {

  /** An interval during which the syncer may act on a stale view, or fail to write. */
  private record Shadow(Instant start, Instant end) {
    boolean overlaps(Instant from, Instant to) {
      return !start.isAfter(to) && !end.isBefore(from);
    }
  }

  private final Actor syncer;
  private final Duration relist;
  private final Duration retry;
  private final List<Shadow> stale = new ArrayList<>();
  private final List<Shadow> failing = new ArrayList<>();
  private Instant lastEdge;
  private Instant now;

  /** The start of the open watch-fault windows (null when none is open) and how many are open. */
  private Instant watchFaultSince;

  private int watchFaults;
  private Instant outageSince;
  private int outages;
  private Instant policyFailureSince;
  private int policyFailures;

  Disturbances(Actor syncer, Duration relist, Duration retry) {
    this.syncer = syncer;
    this.relist = relist;
    this.retry = retry;
  }

  /** Reads the records added since the last check. */
  void read(List<TraceRecord> records, Instant now) {
    this.now = now;
    for (TraceRecord record : records) {
      if (record instanceof Note.Incarnation edge && edge.actor().equals(syncer)) {
        // Every edge of an incarnation, start, stop or crash, loses the syncer's memory.
        lastEdge = edge.at();
        add(stale, new Shadow(edge.at(), edge.at().plus(relist)));
      } else if (record instanceof Note.FaultWindow window) {
        readWindow(window);
      } else if (record instanceof TraceRecord.WatchDelivery w
          && w.owner().equals(syncer)
          && w.fate() != TraceRecord.WatchDelivery.Fate.DELIVERED) {
        add(stale, new Shadow(w.at(), w.at().plus(relist)));
      } else if (record instanceof TraceRecord.Request r
          && r.actor().equals(syncer)
          && (r.code() == 429 || r.code() >= 500)) {
        add(failing, new Shadow(r.at(), r.at().plus(retry)));
      }
    }
  }

  private void readWindow(Note.FaultWindow window) {
    Instant at = window.at();
    switch (window.fault()) {
      case WATCH_FAULT -> {
        if (window.opens()) {
          if (watchFaults++ == 0) {
            watchFaultSince = at;
          }
        } else if (watchFaults > 0 && --watchFaults == 0) {
          add(stale, new Shadow(watchFaultSince, at.plus(relist)));
          watchFaultSince = null;
        }
      }
      case API_OUTAGE -> {
        if (window.opens()) {
          if (outages++ == 0) {
            outageSince = at;
          }
        } else if (outages > 0 && --outages == 0) {
          add(stale, new Shadow(outageSince, at.plus(relist)));
          add(failing, new Shadow(outageSince, at.plus(retry)));
          outageSince = null;
        }
      }
      case POLICY_FAILURE, POLICY_AWAY -> {
        // The policy failing refuses the writes it covers; the policy away holds every write.
        // Reads still work either way, until it heals or comes back.
        if (window.opens()) {
          if (policyFailures++ == 0) {
            policyFailureSince = at;
          }
        } else if (policyFailures > 0 && --policyFailures == 0) {
          add(failing, new Shadow(policyFailureSince, at.plus(retry)));
          policyFailureSince = null;
        }
      }
    }
  }

  /** Adds a shadow, merged into the last one when they overlap: the lists stay short. */
  private static void add(List<Shadow> shadows, Shadow shadow) {
    if (!shadows.isEmpty()) {
      Shadow last = shadows.get(shadows.size() - 1);
      if (!shadow.start().isAfter(last.end()) && !shadow.end().isBefore(last.start())) {
        Instant start = shadow.start().isBefore(last.start()) ? shadow.start() : last.start();
        Instant end = shadow.end().isAfter(last.end()) ? shadow.end() : last.end();
        shadows.set(shadows.size() - 1, new Shadow(start, end));
        return;
      }
    }
    shadows.add(shadow);
  }

  /** Whether the syncer started, stopped or crashed at or after {@code since}. */
  boolean restartedSince(Instant since) {
    return lastEdge != null && !lastEdge.isBefore(since);
  }

  /** Whether the syncer's view may have been stale at {@code at}. */
  boolean staleAt(Instant at) {
    return staleShadows().stream().anyMatch(s -> s.overlaps(at, at));
  }

  /**
   * The latest the syncer may honestly learn of a change that happened between {@code from} and
   * {@code to}: {@code to}, or the end of the stale spells that cover it, one after the other.
   */
  Instant learnedBy(Instant from, Instant to) {
    Instant learned = to;
    boolean moved = true;
    while (moved) {
      moved = false;
      for (Shadow s : staleShadows()) {
        if (s.overlaps(from, learned) && s.end().isAfter(learned)) {
          learned = s.end();
          moved = true;
        }
      }
    }
    return learned;
  }

  /** Whether a write of the syncer may have failed, or waited for its retry, within the span. */
  boolean failingDuring(Instant from, Instant to) {
    List<Shadow> all = new ArrayList<>(failing);
    if (outageSince != null) {
      all.add(new Shadow(outageSince, now.plus(retry)));
    }
    if (policyFailureSince != null) {
      all.add(new Shadow(policyFailureSince, now.plus(retry)));
    }
    return all.stream().anyMatch(s -> s.overlaps(from, to));
  }

  private List<Shadow> staleShadows() {
    List<Shadow> all = new ArrayList<>(stale);
    if (watchFaultSince != null) {
      all.add(new Shadow(watchFaultSince, now.plus(relist)));
    }
    if (outageSince != null) {
      all.add(new Shadow(outageSince, now.plus(relist)));
    }
    return all;
  }
}
