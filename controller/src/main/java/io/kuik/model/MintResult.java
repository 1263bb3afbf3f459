package io.kuik.model;

import java.util.Objects;

/**
 * What running a credential provider plugin came to: its answer, read by {@link
 * ProviderExchange#response}, or why there is none. A failure's message says what happened in words
 * a user can act on and never holds what the plugin printed: neither its stdout (a credential) nor
 * its stderr (a plugin may print a token there too), only their sizes.
 */
public sealed interface MintResult {

  /** The plugin answered with a response the kubelet would use. */
  record Minted(ProviderExchange.Response response) implements MintResult {
    public Minted {
      Objects.requireNonNull(response, "response");
    }
  }

  /** No usable answer. */
  record Failed(Failure failure, String message) implements MintResult {
    public Failed {
      Objects.requireNonNull(failure, "failure");
      Objects.requireNonNull(message, "message");
    }
  }

  /** Each way a plugin can fail, as the metric {@code result} label names it. */
  enum Failure {
    /** No such executable in the plugin directory, or it cannot be run. */
    NOT_FOUND("not_found"),
    /** Still running at the timeout: killed. */
    TIMED_OUT("timed_out"),
    /** Exited with a status other than 0. */
    EXITED("exited"),
    /** Printed more than the syncer reads: killed. */
    TOO_LARGE("too_large"),
    /** Printed something that is not a response the kubelet would use. */
    INVALID("invalid"),
    /**
     * Answered, but with nothing usable for the image (another registry, no validity, too short).
     */
    UNUSABLE("unusable"),
    /** Not run: the syncer is stopping. */
    NOT_RUN("not_run");

    private final String label;

    Failure(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }
}
