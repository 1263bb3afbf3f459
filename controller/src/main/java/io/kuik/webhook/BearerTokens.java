package io.kuik.webhook;

import io.kuik.model.RegistryCredential;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Bearer tokens from registries' token services, reused until shortly before they expire. A token
 * is keyed by everything that could change what it grants: realm, service, scope and the credential
 * it was obtained with (kept in memory only, never logged).
 *
 * <p>Thread-safe.
 */
final class BearerTokens {

  /** The lifetime the distribution token spec assumes when a response gives none. */
  static final long DEFAULT_EXPIRES_IN_SECONDS = 60;

  /** Tokens held at most; the next one first drops them all. */
  static final int MAX_TOKENS = 10_000;

  record Key(String realm, String service, String scope, RegistryCredential credential) {}

  private record Token(String value, long expiresAtNanos) {}

  private final Map<Key, Token> tokens = new ConcurrentHashMap<>();
  private final LongSupplier nanoTime;

  BearerTokens(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
  }

  /** A token still valid for {@code key}. */
  Optional<String> cached(Key key) {
    Token token = tokens.get(key);
    if (token == null) {
      return Optional.empty();
    }
    if (nanoTime.getAsLong() - token.expiresAtNanos >= 0) {
      tokens.remove(key, token);
      return Optional.empty();
    }
    return Optional.of(token.value);
  }

  /**
   * Remembers a token for 90% of {@code expiresInSeconds} (the spec's 60 s when not positive), so
   * that it is never sent in its last moments.
   */
  void remember(Key key, String value, long expiresInSeconds) {
    long lifetime = expiresInSeconds > 0 ? expiresInSeconds : DEFAULT_EXPIRES_IN_SECONDS;
    long usableNanos = lifetime * 900_000_000L;
    if (tokens.size() >= MAX_TOKENS) {
      // A burst of distinct scopes must not grow memory without bound; tokens are cheap to fetch.
      tokens.clear();
    }
    tokens.put(key, new Token(value, nanoTime.getAsLong() + usableNanos));
  }

  void forget(Key key) {
    tokens.remove(key);
  }
}
