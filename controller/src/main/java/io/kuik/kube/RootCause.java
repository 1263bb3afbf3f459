package io.kuik.kube;

/**
 * What failed before the API server answered, in one phrase from the deepest cause ({@code
 * ConnectException: Connection refused}): fabric8's own message says only that "an error has
 * occurred".
 */
public final class RootCause {

  private RootCause() {}

  public static String of(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName()
        + (root.getMessage() == null ? "" : ": " + root.getMessage());
  }
}
