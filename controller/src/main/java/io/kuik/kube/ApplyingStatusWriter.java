package io.kuik.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kuik.ports.SecretWriter.Refused;
import io.kuik.ports.StatusWriter;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The core's {@link StatusWriter} on fabric8: a server-side apply of {@code status} alone on the
 * resource's status subresource, as {@code kuik-secret-syncer-status} with force, behind the same
 * write fence and rate limit as the Secrets. The ServiceAccount may patch {@code
 * imagealternatives/status} and {@code imagemirrors/status}, nothing else of them.
 */
final class ApplyingStatusWriter implements StatusWriter {

  private static final Logger LOG = Logger.getLogger(ApplyingStatusWriter.class.getName());

  private final KubernetesClient client;
  private final TokenBucket rateLimit;
  private final WriteFence fence;
  private final SyncerMetrics metrics;

  ApplyingStatusWriter(
      KubernetesClient client, TokenBucket rateLimit, WriteFence fence, SyncerMetrics metrics) {
    this.client = client;
    this.rateLimit = rateLimit;
    this.fence = fence;
    this.metrics = metrics;
  }

  @Override
  public boolean apply(Status status) {
    Refused refused = send(status);
    metrics.statusWritten(refused == null ? "Applied" : refused.reason());
    if (refused != null && refused.code() != 0) {
      LOG.log(
          Level.WARNING,
          "status of {0} refused ({1} {2}): {3}",
          new Object[] {status.resource(), refused.code(), refused.reason(), refused.message()});
    }
    return refused == null;
  }

  private Refused send(Status status) {
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
    closed = fence.refusal(); // leadership may have been lost while this write waited
    if (closed != null) {
      return closed;
    }
    try {
      // With the object in hand, fabric8 sends the apply alone: no read first.
      client
          .genericKubernetesResources(Status.API_VERSION, status.resource().kind().kind())
          .resource(
              client
                  .getKubernetesSerialization()
                  .convertValue(status.applyConfiguration(), GenericKubernetesResource.class))
          .subresource("status")
          .patch(
              new PatchContext.Builder()
                  .withPatchType(PatchType.SERVER_SIDE_APPLY)
                  .withFieldManager(FIELD_MANAGER)
                  .withForce(true)
                  .build());
      return null;
    } catch (KubernetesClientException e) {
      return ApplyingSecretWriter.refusal(e);
    } catch (RuntimeException broken) {
      return new Refused(0, "ClientError", broken.getClass().getSimpleName());
    }
  }
}
