package io.kuik.model;

import java.util.Objects;

/**
 * One thing wrong with a routing resource: the field it is in (e.g. {@code
 * spec.alternatives[1].auth}) and a message saying what is wrong and what to do.
 */
public record Problem(String field, String message) {

  public Problem {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(message, "message");
  }

  @Override
  public String toString() {
    return field + ": " + message;
  }
}
