package io.kuik.kube.syncer;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kuik.kube.RootCause;
import io.kuik.syncer.Answer;
import io.kuik.syncer.Effect;

/**
 * One {@link Effect.ApplySecret} on fabric8: a server-side apply with field manager {@code
 * kuik-secret-syncer} and force, never a read first (docs/behaviour.md#keeping-it-valid), behind
 * the {@link io.kuik.syncer.WriteGate}. The core has paced it already. It blocks for the round
 * trip, on one of the {@link SyncerDriver}'s sender threads. Every failure comes back as an {@link
 * Answer.Refused}, so the core decides on the retry.
 */
final class ApplyingSecretWriter {

  private final KubernetesClient client;
  private final SyncerMetrics metrics;

  ApplyingSecretWriter(KubernetesClient client, SyncerMetrics metrics) {
    this.client = client;
    this.metrics = metrics;
  }

  Answer apply(Secret secret) {
    return send(secret);
  }

  /** Counts a refusal, the gate's included, in the metrics; returns the answer. */
  Answer counted(Answer answer) {
    if (answer instanceof Answer.Refused refused) {
      metrics.applyFailed(refused.reason());
    }
    return answer;
  }

  private Answer send(Secret secret) {
    try {
      client
          .secrets()
          .inNamespace(secret.getMetadata().getNamespace())
          .resource(secret)
          .fieldManager(Effect.ApplySecret.FIELD_MANAGER)
          .forceConflicts()
          .serverSideApply();
      return Answer.APPLIED;
    } catch (KubernetesClientException refused) {
      return refusal(refused);
    } catch (RuntimeException broken) {
      return new Answer.Refused(0, "ClientError", broken.getClass().getSimpleName());
    }
  }

  /**
   * The API server's Status when there is one; code 0 and reason {@code Transport} for a failure
   * before any answer (fabric8 says -1 there).
   */
  static Answer.Refused refusal(KubernetesClientException e) {
    int code = Math.max(0, e.getCode());
    Status status = e.getStatus();
    String reason = status == null ? null : status.getReason();
    String message = status == null ? null : status.getMessage();
    if (reason == null || reason.isEmpty()) {
      reason = code == 0 ? "Transport" : "Unknown";
    }
    if (message == null || message.isEmpty()) {
      message = code == 0 ? RootCause.of(e) : e.getMessage();
    }
    return new Answer.Refused(code, reason, message);
  }
}
