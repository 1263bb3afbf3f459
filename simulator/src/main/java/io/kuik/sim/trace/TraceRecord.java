package io.kuik.sim.trace;

import java.time.Instant;

/**
 * One thing that happened in the simulated world. Every record renders as one fixed-column timeline
 * line and as one canonical line that the trace hash is computed over.
 */
public sealed interface TraceRecord
    permits TraceRecord.Request,
        TraceRecord.WatchDelivery,
        TraceRecord.Note,
        TraceRecord.SyncerEffect {

  Instant at();

  /** Who acted: a short name of the identity or the watcher. */
  String actor();

  /** What was done: a verb, a watch event type, or a note's kind. */
  String action();

  /** What it was done to, e.g. {@code secrets team-a/x}; may be empty. */
  String target();

  /** How it ended, e.g. {@code 200 rv=12} or {@code 403 <message>}. */
  String outcome();

  /** Every field, unpadded, separated by '|': the input of the trace hash. */
  default String canonical() {
    return String.join(
        "|", getClass().getSimpleName(), at().toString(), actor(), action(), target(), outcome());
  }

  /**
   * An API request: who, which verb (APPLY for a server-side apply), on what, and its status code;
   * a refused request carries the API server's message.
   */
  record Request(
      Instant at,
      String actor,
      String action,
      String target,
      int code,
      String detail,
      String message)
      implements TraceRecord {
    @Override
    public String outcome() {
      StringBuilder out = new StringBuilder().append(code);
      if (detail != null && !detail.isEmpty()) {
        out.append(' ').append(detail);
      }
      if (message != null && !message.isEmpty()) {
        out.append(' ').append(message);
      }
      return out.toString();
    }

    public boolean succeeded() {
      return code < 400;
    }
  }

  /**
   * A watch event handed to a watcher (DELIVERED), lost on the way (DROPPED), or the watch closed
   * as expired (EXPIRED, 410 Gone).
   */
  record WatchDelivery(
      Instant at, String actor, Fate fate, String eventType, String target, String resourceVersion)
      implements TraceRecord {

    public enum Fate {
      DELIVERED,
      DROPPED,
      EXPIRED
    }

    @Override
    public String action() {
      return fate == Fate.DELIVERED
          ? eventType
          : fate.name() + (eventType.isEmpty() ? "" : " " + eventType);
    }

    @Override
    public String outcome() {
      return fate == Fate.EXPIRED ? "410 Gone" : "rv=" + resourceVersion;
    }
  }

  /** A free-form line from a component or an actor, e.g. a webhook that failed open. */
  record Note(Instant at, String actor, String action, String target, String outcome)
      implements TraceRecord {}

  /**
   * An effect the syncer's core returned, as the simulated executor takes it in hand: an apply or a
   * status write (whose request follows half a round trip later), an Event, or a timer.
   */
  record SyncerEffect(Instant at, String actor, Kind kind, String target, String outcome)
      implements TraceRecord {

    public enum Kind {
      APPLY,
      STATUS,
      EVENT,
      WAKE
    }

    @Override
    public String action() {
      return "effect " + kind;
    }
  }
}
