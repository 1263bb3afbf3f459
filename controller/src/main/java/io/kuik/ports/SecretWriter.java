package io.kuik.ports;

import io.fabric8.kubernetes.api.model.Secret;

/**
 * Sends a server-side apply of a Secret as field manager {@code kuik-secret-syncer}, with force,
 * without reading the Secret first. The API server treats an apply that changes nothing as a no-op.
 *
 * <p>Contract: idempotent; may block while the driver rate-limits; never throws for an API error
 * but returns it, so that the core decides whether and when to retry.
 */
@FunctionalInterface
public interface SecretWriter {

  String FIELD_MANAGER = "kuik-secret-syncer";

  Outcome apply(Secret secret);

  /** What the API server answered. */
  sealed interface Outcome permits Applied, Refused {}

  record Applied() implements Outcome {}

  /**
   * The API server's refusal (or the transport's failure, with code 0), with its reason and
   * message, e.g. 422 Invalid, 403 Forbidden, 429 TooManyRequests, 503 ServiceUnavailable.
   */
  record Refused(int code, String reason, String message) implements Outcome {
    /** A namespace being terminated refuses every new object; retrying cannot help. */
    public boolean namespaceTerminating() {
      return code == 403 && message != null && message.contains("being terminated");
    }
  }
}
