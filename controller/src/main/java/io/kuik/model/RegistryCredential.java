package io.kuik.model;

/**
 * The credential of one {@code auths} entry of a {@code .dockerconfigjson}, as the kubelet uses it
 * to pull: a user name and password (decoded from {@code auth} when the entry has one), or a token.
 * Every component is {@code null} when the entry does not carry it.
 *
 * <p>{@link #toString()} never shows a value, only which parts are present, so that a credential
 * that reaches a log line or an assertion message leaks nothing.
 */
public record RegistryCredential(
    String username, String password, String identityToken, String registryToken) {

  /** A user name and password, the shape {@code kubectl create secret docker-registry} writes. */
  public static RegistryCredential basic(String username, String password) {
    return new RegistryCredential(username, password, null, null);
  }

  /**
   * Whether no part is set: the kubelet would pull anonymously with such an entry, so a caller that
   * needs a usable credential checks this.
   */
  public boolean isEmpty() {
    return username == null && password == null && identityToken == null && registryToken == null;
  }

  @Override
  public String toString() {
    return "RegistryCredential[username="
        + shown(username)
        + ", password="
        + shown(password)
        + ", identityToken="
        + shown(identityToken)
        + ", registryToken="
        + shown(registryToken)
        + "]";
  }

  private static String shown(String value) {
    return value == null ? "absent" : "<redacted>";
  }
}
