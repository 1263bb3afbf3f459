package io.kuik.model;

/**
 * A {@code .dockerconfigjson} that cannot be read as a Docker config. The message says what is
 * wrong and, when it concerns one entry, names that entry's {@code auths} key; it never contains a
 * credential value, and the exception carries no cause, because a JSON parser's own message may
 * quote the input it choked on.
 */
public final class InvalidDockerConfigException extends Exception {

  private static final long serialVersionUID = 1L;

  public InvalidDockerConfigException(String reason) {
    super(reason);
  }
}
