package io.kuik.kube;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kuik.ports.SecretWriter;
import io.kuik.ports.SecretWriter.Applied;
import io.kuik.ports.SecretWriter.Outcome;
import io.kuik.ports.SecretWriter.Refused;

/**
 * One apply on fabric8: a server-side apply with field manager {@code kuik-secret-syncer} and
 * force, never a read first (docs/behaviour.md#keeping-it-valid), behind the write fence and the
 * rate limit. It blocks for the round trip, on one of the {@link SyncerDriver}'s sender threads.
 * Every failure comes back as a {@link Refused}, so the core decides on the retry.
 */
final class ApplyingSecretWriter {

  private final KubernetesClient client;
  private final TokenBucket rateLimit;
  private final WriteFence fence;
  private final SyncerMetrics metrics;

  ApplyingSecretWriter(
      KubernetesClient client, TokenBucket rateLimit, WriteFence fence, SyncerMetrics metrics) {
    this.client = client;
    this.rateLimit = rateLimit;
    this.fence = fence;
    this.metrics = metrics;
  }

  Outcome apply(Secret secret) {
    Outcome outcome = send(secret);
    if (outcome instanceof Refused refused) {
      metrics.applyFailed(refused.reason());
    }
    return outcome;
  }

  private Outcome send(Secret secret) {
    Refused closed = fence.refusal();
    if (closed != null) {
      return closed;
    }
    try {
      rateLimit.acquire();
    } catch (InterruptedException stopping) {
      Thread.currentThread().interrupt();
      return new Refused(0, "ShuttingDown", "the syncer is stopping; nothing was sent");
    }
    // Checked after the wait too: leadership may have been lost while this apply waited.
    closed = fence.refusal();
    if (closed != null) {
      return closed;
    }
    try {
      client
          .secrets()
          .inNamespace(secret.getMetadata().getNamespace())
          .resource(secret)
          .fieldManager(SecretWriter.FIELD_MANAGER)
          .forceConflicts()
          .serverSideApply();
      return new Applied();
    } catch (KubernetesClientException refused) {
      return refusal(refused);
    } catch (RuntimeException broken) {
      return new Refused(0, "ClientError", broken.getClass().getSimpleName());
    }
  }

  /**
   * The API server's Status when there is one; code 0 and reason {@code Transport} for a failure
   * before any answer (fabric8 says -1 there).
   */
  static Refused refusal(KubernetesClientException e) {
    int code = Math.max(0, e.getCode());
    Status status = e.getStatus();
    String reason = status == null ? null : status.getReason();
    String message = status == null ? null : status.getMessage();
    if (reason == null || reason.isEmpty()) {
      reason = code == 0 ? "Transport" : "Unknown";
    }
    if (message == null || message.isEmpty()) {
      message = e.getMessage();
    }
    return new Refused(code, reason, message);
  }
}
