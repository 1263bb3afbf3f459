package io.kuik.sim.actors;

import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Meta;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * The rewrite of every Secret that follows a new encryption-at-rest key, as the Kubernetes
 * documentation gives it: {@code kubectl get secrets --all-namespaces -o json | kubectl replace -f
 * -}. One LIST, then a PUT of each object exactly as listed (its resourceVersion included, so a
 * Secret written in between is a 409 Conflict), by a cluster administrator. Each object's outcome
 * is reported; one refusal does not stop the others, as kubectl goes on through the list.
 *
 * <p>Call {@link ApiServer#rotateEncryptionKey()} first for the PUTs to write anything: with the
 * same key an unchanged PUT is a no-op.
 */
public final class KubectlReplace {

  /** A cluster administrator. */
  public static final Identity ADMIN = Identity.person("admin", "system:masters");

  /** What happened to one Secret: 200, or the API server's code and message. */
  public record Outcome(String namespace, String name, int code, String message) {
    public boolean replaced() {
      return code == 200;
    }
  }

  private final ApiServer api;
  private final Identity identity;

  public KubectlReplace(ApiServer api) {
    this(api, ADMIN);
  }

  public KubectlReplace(ApiServer api, Identity identity) {
    this.api = Objects.requireNonNull(api, "api");
    this.identity = Objects.requireNonNull(identity, "identity");
  }

  /**
   * Replaces every Secret of the cluster.
   *
   * @throws ApiException when the LIST itself fails: kubectl then replaces nothing
   */
  public List<Outcome> replaceAllSecrets() {
    List<Outcome> outcomes = new ArrayList<>();
    for (ObjectNode secret : api.list(identity, ResourceType.SECRET, null).items()) {
      try {
        api.update(identity, secret, "kubectl-replace");
        outcomes.add(new Outcome(Meta.namespace(secret), Meta.name(secret), 200, null));
      } catch (ApiException e) {
        outcomes.add(
            new Outcome(Meta.namespace(secret), Meta.name(secret), e.code(), e.getMessage()));
      }
    }
    return outcomes;
  }
}
