package io.kuik.kube.syncer;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kuik.syncer.Answer;
import io.kuik.syncer.Effect;
import io.kuik.syncer.RoutingStatus;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One {@link Effect.WriteStatus} on fabric8: a server-side apply of the status alone on the
 * resource's status subresource, as {@code kuik-secret-syncer-status} with force, behind the same
 * {@link io.kuik.syncer.WriteGate} as the Secrets (the core paced it with them). The ServiceAccount
 * may patch {@code imagealternatives/status} and {@code imagemirrors/status}, nothing else of them.
 * It blocks for the round trip, on the driver's thread for statuses and Events.
 */
final class ApplyingStatusWriter {

  private static final Logger LOG = Logger.getLogger(ApplyingStatusWriter.class.getName());

  private final KubernetesClient client;
  private final SyncerMetrics metrics;

  ApplyingStatusWriter(KubernetesClient client, SyncerMetrics metrics) {
    this.client = client;
    this.metrics = metrics;
  }

  Answer apply(RoutingStatus status) {
    return send(status);
  }

  /** Counts the answer, the gate's refusal included, in the metrics; returns it. */
  Answer counted(RoutingStatus status, Answer answer) {
    if (answer instanceof Answer.Refused refused) {
      metrics.statusWritten(refused.reason());
      if (refused.code() != 0) {
        LOG.log(
            Level.WARNING,
            "status of {0} refused ({1} {2}): {3}",
            new Object[] {status.resource(), refused.code(), refused.reason(), refused.message()});
      }
    } else {
      metrics.statusWritten("Applied");
    }
    return answer;
  }

  private Answer send(RoutingStatus status) {
    try {
      // With the object in hand, fabric8 sends the apply alone: no read first.
      client
          .genericKubernetesResources(RoutingStatus.API_VERSION, status.resource().kind().kind())
          .resource(
              client
                  .getKubernetesSerialization()
                  .convertValue(status.applyConfiguration(), GenericKubernetesResource.class))
          .subresource("status")
          .patch(
              new PatchContext.Builder()
                  .withPatchType(PatchType.SERVER_SIDE_APPLY)
                  .withFieldManager(Effect.WriteStatus.FIELD_MANAGER)
                  .withForce(true)
                  .build());
      return Answer.APPLIED;
    } catch (KubernetesClientException e) {
      return ApplyingSecretWriter.refusal(e);
    } catch (RuntimeException broken) {
      return new Answer.Refused(0, "ClientError", broken.getClass().getSimpleName());
    }
  }
}
