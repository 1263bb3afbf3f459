package io.kuik.sim.trace;

import java.time.Instant;
import java.util.Objects;

/**
 * One thing that happened in the simulated world: an API request, a watch event's fate, or a note
 * ({@link Note}). Every field is typed, so that a checker asks what happened, never how it was
 * printed. Every record renders as one fixed-column timeline line ({@link #columns}) and as one
 * canonical line that the trace hash is computed over.
 */
public sealed interface TraceRecord permits TraceRecord.Request, TraceRecord.WatchDelivery, Note {

  Instant at();

  /** The four columns after the time, as the timeline prints them. */
  Columns columns();

  /** The record's family in the canonical line: Request, WatchDelivery or Note. */
  String family();

  /** Every column, unpadded, separated by '|': the input of the trace hash. */
  default String canonical() {
    Columns c = columns();
    return String.join(
        "|", family(), at().toString(), c.actor(), c.action(), c.target(), c.outcome());
  }

  /** A timeline line's columns: who, what, on what, and how it ended. */
  record Columns(String actor, String action, String target, String outcome) {
    public Columns {
      Objects.requireNonNull(actor, "actor");
      Objects.requireNonNull(action, "action");
      Objects.requireNonNull(target, "target");
      Objects.requireNonNull(outcome, "outcome");
    }
  }

  /** An API request: who, what kind, on what, and the API server's answer. */
  record Request(Instant at, Actor actor, RequestKind kind, Target target, Answer answer)
      implements TraceRecord {

    public Request {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(actor, "actor");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(target, "target");
      Objects.requireNonNull(answer, "answer");
    }

    public int code() {
      return answer.code();
    }

    public boolean succeeded() {
      return !(answer instanceof Answer.Refused);
    }

    /** The refusal's message; empty when the request was served. */
    public String message() {
      return answer instanceof Answer.Refused refused ? refused.message() : "";
    }

    /** Whether this is a write (of any kind, refused or not) sent by that actor. */
    public boolean isWriteBy(Actor by) {
      return actor.equals(by) && !kind.reads();
    }

    /** Whether this is a write that changed the stored object (no-op applies do not). */
    public boolean changedSomething() {
      return answer instanceof Answer.Written written && !written.noOp();
    }

    @Override
    public Columns columns() {
      return new Columns(actor.name(), kind.name(), target.toString(), answer.text());
    }

    @Override
    public String family() {
      return "Request";
    }
  }

  /**
   * A watch event handed to a watcher (DELIVERED), lost on the way (DROPPED), or the watch closed
   * as expired (EXPIRED, 410 Gone; no event then). {@code owner} is the actor of the identity that
   * opened the watch, {@code watcher} the watch's own name (e.g. {@code syncer#2/pods}).
   */
  record WatchDelivery(
      Instant at,
      Actor owner,
      String watcher,
      Fate fate,
      EventType event,
      Target target,
      String resourceVersion)
      implements TraceRecord {

    public enum Fate {
      DELIVERED,
      DROPPED,
      EXPIRED
    }

    /** The watch event types. */
    public enum EventType {
      ADDED,
      MODIFIED,
      DELETED
    }

    public WatchDelivery {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(owner, "owner");
      Objects.requireNonNull(watcher, "watcher");
      Objects.requireNonNull(fate, "fate");
      Objects.requireNonNull(target, "target");
      if ((event == null) != (fate == Fate.EXPIRED)) {
        throw new IllegalArgumentException("an expiry carries no event, a delivery or drop one");
      }
    }

    /** A watch closed as expired: no event, no resourceVersion. */
    public static WatchDelivery expired(Instant at, Actor owner, String watcher, Target watch) {
      return new WatchDelivery(at, owner, watcher, Fate.EXPIRED, null, watch, "");
    }

    @Override
    public Columns columns() {
      String action =
          fate == Fate.DELIVERED
              ? event.name()
              : fate.name() + (event == null ? "" : " " + event.name());
      String outcome = fate == Fate.EXPIRED ? "410 Gone" : "rv=" + resourceVersion;
      return new Columns(watcher, action, target.toString(), outcome);
    }

    @Override
    public String family() {
      return "WatchDelivery";
    }
  }
}
