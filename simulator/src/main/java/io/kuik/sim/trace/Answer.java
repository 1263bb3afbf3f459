package io.kuik.sim.trace;

import java.util.Objects;

/** How the API server answered a request: served, listed, written, dry-run, or refused. */
public sealed interface Answer
    permits Answer.Served, Answer.Listed, Answer.Written, Answer.DryRun, Answer.Refused {

  /** The HTTP status code. */
  int code();

  /** As the timeline's outcome column shows it, e.g. {@code 200 rv=12 unchanged}. */
  String text();

  /** A get or a watch. */
  record Served(int code) implements Answer {
    @Override
    public String text() {
      return Integer.toString(code);
    }
  }

  /** A list, and how many items it returned. */
  record Listed(int code, int items) implements Answer {
    @Override
    public String text() {
      return code + " " + items + " items";
    }
  }

  /**
   * A write, and the object's resourceVersion after it; {@code noOp} when an apply, update or patch
   * changed nothing, so that storage kept the object as it was.
   */
  record Written(int code, String resourceVersion, boolean noOp) implements Answer {
    @Override
    public String text() {
      return code + " rv=" + resourceVersion + (noOp ? " unchanged" : "");
    }
  }

  /**
   * A write sent with {@code dryRun=All} that every stage admitted: the client got the object as it
   * would have been stored, and nothing was.
   */
  record DryRun(int code) implements Answer {
    @Override
    public String text() {
      return code + " dry run, nothing stored";
    }
  }

  /** A refusal: the stage that refused, and the message the client got. */
  record Refused(int code, Stage stage, String message) implements Answer {
    public Refused {
      Objects.requireNonNull(stage, "stage");
      Objects.requireNonNull(message, "message");
    }

    @Override
    public String text() {
      return message.isEmpty() ? Integer.toString(code) : code + " " + message;
    }
  }
}
