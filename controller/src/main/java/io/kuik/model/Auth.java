package io.kuik.model;

/**
 * The credential of an entry, defaults applied: exactly one of a Secret in the cluster resource
 * namespace ({@code secretRef}) or a credential {@code provider}, and whether the pods routed
 * through the entry get the credential injected.
 *
 * <p>{@code injectPullSecret} defaults to true for a secretRef and false for a provider, whose
 * credential the syncer mints and keeps valid (docs/behaviour.md#provider-credentials).
 */
public record Auth(String secretRefName, String provider, boolean injectPullSecret) {

  public Auth {
    if ((secretRefName == null) == (provider == null)) {
      throw new IllegalArgumentException("an auth has exactly one of secretRef or provider");
    }
  }

  /** A secretRef auth with its default, {@code injectPullSecret: true}. */
  public static Auth secretRef(String name) {
    return new Auth(name, null, true);
  }

  /** A provider auth with its default, {@code injectPullSecret: false}. */
  public static Auth provider(String provider) {
    return new Auth(null, provider, false);
  }

  /**
   * Whether pods routed through this entry get {@code kuik-inject-<kind>-<name>}: injectPullSecret
   * on, for a secretRef (its default) or a provider (off by default).
   */
  public boolean injects() {
    return injectPullSecret;
  }
}
