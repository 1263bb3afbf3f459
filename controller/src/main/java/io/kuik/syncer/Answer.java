package io.kuik.syncer;

/**
 * What the API server answered a write the core asked for (an {@link Effect.ApplySecret} or an
 * {@link Effect.WriteStatus}): it comes back to the core as an {@link Input}, and the core alone
 * decides whether and when to try again.
 */
public sealed interface Answer permits Answer.Applied, Answer.Refused {

  /** Taken: the object holds what was sent (an identical apply is a no-op on the server). */
  record Applied() implements Answer {}

  /**
   * The API server's refusal (or the transport's failure, with code 0), with its reason and
   * message, e.g. 422 Invalid, 403 Forbidden, 429 TooManyRequests, 503 ServiceUnavailable; an
   * executor that did not send the write (not leading, stopping) answers with code 0 too.
   */
  record Refused(int code, String reason, String message) implements Answer {
    /** A namespace being terminated refuses every new object; retrying cannot help. */
    public boolean namespaceTerminating() {
      return code == 403 && message != null && message.contains("being terminated");
    }

    /**
     * The refusal in a few words, for log lines and their summaries: the code and reason the API
     * server gave ({@code 503 ServiceUnavailable}), or why nothing answered.
     */
    public String summary() {
      if (code != 0) {
        return code + " " + reason;
      }
      switch (reason) {
        case "Transport":
          return "no answer from the API server";
        case "NotLeader":
          return "not sent (not the leader)";
        case "ShuttingDown":
          return "not sent (stopping)";
        default:
          return "not sent (" + reason + ")";
      }
    }
  }

  /** The answer to a write that reached the server and was taken. */
  Answer APPLIED = new Applied();
}
