package io.kuik.sim.bench;

import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Meta;
import java.time.Duration;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * A baseline modelled on imagepullsecret-patcher's documented loop: every 10 seconds, list the
 * namespaces, read the source Secrets, and in every target namespace GET the copy, creating it when
 * missing and updating (PUT) it when it differs. It keeps nothing between loops, so a restart costs
 * it nothing but the loop it missed. (The patcher also patches ServiceAccounts; not modelled.)
 */
final class PeriodicCopier implements Contender {

  static final Duration PERIOD = Duration.ofSeconds(10);
  static final Identity IDENTITY = Identity.person("patcher", "system:masters");

  private final ApiServer api;
  private final Workload workload;
  private int incarnation;

  PeriodicCopier(KuikWorld world, Workload workload) {
    this.api = world.api();
    this.workload = workload;
    world.createNamespace(Workload.INSTALL_NAMESPACE, java.util.Map.of());
    world.cluster().trace().alias(IDENTITY, "patcher");
  }

  @Override
  public String actor() {
    return "patcher";
  }

  @Override
  public String watcherPrefix() {
    return null;
  }

  @Override
  public void start() {
    int mine = ++incarnation;
    api.loop().schedule(Duration.ZERO, "patcher loop", () -> loop(mine));
  }

  @Override
  public void restart() {
    start();
  }

  private void loop(int mine) {
    if (mine != incarnation) {
      return;
    }
    try {
      api.list(IDENTITY, ResourceType.NAMESPACE, null);
      for (int k = 0; k < Workload.ALWAYS + Workload.ON_FAILURE; k++) {
        ObjectNode source =
            api.get(
                IDENTITY,
                ResourceType.SECRET,
                Workload.INSTALL_NAMESPACE,
                Workload.sourceSecret(k));
        for (String namespace : Copies.targets(workload, k)) {
          copy(source, k, namespace);
        }
      }
    } catch (ApiException failed) {
      // The loop gives up this round and tries again at the next tick, as the patcher does.
    }
    api.loop().schedule(PERIOD, "patcher loop", () -> loop(mine));
  }

  private void copy(ObjectNode source, int k, String namespace) {
    Optional<ObjectNode> live =
        api.find(IDENTITY, ResourceType.SECRET, namespace, Workload.secretName(k));
    ObjectNode wanted = Copies.copyOf(source, k, namespace);
    if (live.isEmpty()) {
      api.create(IDENTITY, wanted);
    } else if (!Copies.sameData(live.get(), wanted)) {
      ((ObjectNode) wanted.get("metadata"))
          .put("resourceVersion", Meta.resourceVersion(live.get()));
      api.update(IDENTITY, wanted);
    }
  }
}
