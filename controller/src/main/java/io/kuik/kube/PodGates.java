package io.kuik.kube;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kuik.model.PullSecretGate;

/**
 * Removes {@link PullSecretGate} from a pod on fabric8, with the JSON Patch of {@link
 * PullSecretGate#removal}: the syncer's executor and the webhook's bound both send it. Blocks for
 * the round trip and never throws: every failure comes back as a {@link Result}.
 */
public final class PodGates {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  /**
   * The API server's answer: code 200 when the gate was removed; else its refusal (code 0 for a
   * failure before any answer).
   */
  public record Result(int code, String reason, String message) {
    static final Result RELEASED = new Result(200, "OK", "");

    public boolean released() {
      return code == 200;
    }
  }

  private final KubernetesClient client;

  public PodGates(KubernetesClient client) {
    this.client = client;
  }

  public Result release(String namespace, String name, String uid, int index) {
    try {
      // Through a stub of the pod, not withName(name): fabric8 reads the pod before a patch by
      // name, a GET the webhook's RBAC does not grant (and a request the patch does not need).
      Pod stub =
          new PodBuilder()
              .withNewMetadata()
              .withNamespace(namespace)
              .withName(name)
              .endMetadata()
              .build();
      client
          .pods()
          .inNamespace(namespace)
          .resource(stub)
          .patch(PatchContext.of(PatchType.JSON), JSON.asJson(PullSecretGate.removal(uid, index)));
      return Result.RELEASED;
    } catch (KubernetesClientException refused) {
      int code = Math.max(0, refused.getCode());
      Status status = refused.getStatus();
      String reason = status == null || status.getReason() == null ? "" : status.getReason();
      String message =
          status == null || status.getMessage() == null
              ? refused.getMessage()
              : status.getMessage();
      return new Result(
          code, reason.isEmpty() ? (code == 0 ? "Transport" : "Unknown") : reason, message);
    } catch (RuntimeException broken) {
      return new Result(0, "ClientError", broken.getClass().getSimpleName());
    }
  }
}
