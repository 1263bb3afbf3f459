package io.kuik.ports;

import io.fabric8.kubernetes.api.model.Secret;
import java.util.function.Consumer;

/**
 * Sends a server-side apply of a Secret as field manager {@code kuik-secret-syncer}, with force,
 * without reading the Secret first. The API server treats an apply that changes nothing as a no-op.
 *
 * <p>Contract: asynchronous, so that several applies can be in flight while the core goes on.
 * {@link #apply} never blocks and never throws; the driver calls {@code answered} exactly once, on
 * the core's own thread and never from within {@code apply}, with what the API server answered: an
 * API error comes back as a {@link Refused}, and the core decides whether and when to retry. A
 * driver that stops may drop answers still to come, with the core they were for.
 */
@FunctionalInterface
public interface SecretWriter {

  String FIELD_MANAGER = "kuik-secret-syncer";

  void apply(Secret secret, Consumer<Outcome> answered);

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
