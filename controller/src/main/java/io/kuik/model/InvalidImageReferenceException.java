package io.kuik.model;

/**
 * An image reference or registry path that does not follow the Docker reference grammar. The
 * message names the input and says what is wrong in it; {@link #reason()} is that last part alone,
 * for callers that put the input in context themselves.
 */
public final class InvalidImageReferenceException extends Exception {

  private final String input;
  private final String reason;

  InvalidImageReferenceException(String what, String input, String reason) {
    super("invalid " + what + " \"" + input + "\": " + reason);
    this.input = input;
    this.reason = reason;
  }

  /** The text that failed to parse, exactly as given. */
  public String input() {
    return input;
  }

  /** What is wrong in {@link #input()}, e.g. {@code path segment "Nginx" must be lower-case}. */
  public String reason() {
    return reason;
  }
}
