package io.kuik.model;

import java.util.Collection;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A credential to try ahead of any pod (docs/behaviour.md#credentials-tried-ahead-of-time): the
 * registry ({@code host[:port]}, as image references name it), the very credential kuik writes for
 * its entries there, and the repository paths below the registry a pull would be for, whose {@code
 * pull} scope a token is asked for. Tried once for every entry that shares the registry and the
 * credential.
 *
 * <p>{@link #toString()} shows no credential value.
 */
public record CredentialTrial(
    String registry, RegistryCredential credential, SortedSet<String> paths) {

  /** Scopes asked in one token request, at most: a URL stays short, a realm answers once. */
  public static final int MAX_PATHS = 10;

  public CredentialTrial {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(credential, "credential");
    paths = trimmed(paths);
  }

  /** The same registry and credential: what shares one trial. */
  public Key key() {
    return new Key(registry, credential);
  }

  /** What one trial stands for: a registry and a credential, whatever the paths. */
  public record Key(String registry, RegistryCredential credential) {
    public Key {
      Objects.requireNonNull(registry, "registry");
      Objects.requireNonNull(credential, "credential");
    }
  }

  private static SortedSet<String> trimmed(Collection<String> paths) {
    SortedSet<String> kept = new TreeSet<>();
    for (String path : paths) {
      if (path != null && !path.isEmpty() && kept.size() < MAX_PATHS) {
        kept.add(path);
      }
    }
    return java.util.Collections.unmodifiableSortedSet(kept);
  }
}
