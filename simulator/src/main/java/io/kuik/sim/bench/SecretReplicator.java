package io.kuik.sim.bench;

import io.kuik.sim.client.Informer;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.trace.Actor;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.ClusterState;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Meta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * A baseline that runs as mittwald/kubernetes-replicator runs (v2.12.4, f535dd9): {@code
 * secret.NewReplicator} (replicate/secret/secrets.go) builds, through {@code
 * common.NewGenericReplicator} (replicate/common/generic-replicator.go), an informer on every
 * Secret of the cluster ({@code Secrets("").List} and {@code Watch}) and, through {@code
 * NamespaceWatcher.create} (replicate/common/namespaces.go), one on every namespace, both with
 * {@code --resync-period} 30m (main.go). A source annotated to replicate to matching namespaces is
 * copied into each of them ({@code ReplicateObjectTo}: the target looked up in its own store,
 * CREATE when missing, UPDATE when it differs); {@code NamespaceAdded} copies every source into a
 * new namespace; a copy changed or deleted by someone else is written back. Its writes wait on
 * client-go's default limit ({@link ClientGoThrottle}: {@code kubernetes.NewForConfigOrDie} on a
 * {@code rest.Config} without QPS); its lists and watches are the simulator's informers, not
 * throttled. A restart relists everything.
 */
final class SecretReplicator implements Contender {

  static final Duration RESYNC = Duration.ofMinutes(30);
  static final Identity IDENTITY = Identity.person("replicator", "system:masters");

  private final ApiServer api;
  private Informer secrets;
  private Informer namespaces;
  private boolean namespacesListed;
  private ClientGoThrottle throttle;
  private int incarnation;
  private final java.util.ArrayDeque<Step> work = new java.util.ArrayDeque<>();
  private boolean busy;

  SecretReplicator(KuikWorld world, Workload workload) {
    this.api = world.cluster().api();
    world.objects().createNamespace(Workload.INSTALL_NAMESPACE, java.util.Map.of());
    world.cluster().trace().alias(IDENTITY, "replicator");
  }

  @Override
  public Actor actor() {
    return new Actor("replicator");
  }

  @Override
  public void start() {
    int mine = ++incarnation;
    throttle = new ClientGoThrottle(api.loop());
    Informer s =
        new Informer(api, IDENTITY, "replicator/secrets", ResourceType.SECRET, null, null, RESYNC);
    Informer n =
        new Informer(
            api, IDENTITY, "replicator/namespaces", ResourceType.NAMESPACE, null, null, RESYNC);
    s.addHandler(
        new Informer.Handler() {
          @Override
          public void onAdd(ObjectNode object) {
            secretSeen(mine, s, object);
          }

          @Override
          public void onUpdate(ObjectNode old, ObjectNode now) {
            secretSeen(mine, s, now);
          }

          @Override
          public void onDelete(ObjectNode last) {
            copyGone(mine, s, last);
          }
        });
    n.addHandler(
        new Informer.Handler() {
          @Override
          public void onAdd(ObjectNode object) {
            // Namespaces of the first list were served when the sources were listed.
            if (s.hasSynced() && namespacesListed) {
              for (int k = 0; k < Workload.ALWAYS + Workload.ON_FAILURE; k++) {
                replicate(mine, s, k, List.of(Meta.name(object)));
              }
            }
          }
        });
    secrets = s;
    namespaces = n;
    namespacesListed = false;
    api.loop().schedule(Duration.ofSeconds(1), "replicator listed", this::markListed);
    s.start();
    n.start();
  }

  private void markListed() {
    if (namespaces.hasSynced()) {
      namespacesListed = true;
    } else {
      api.loop().schedule(Duration.ofSeconds(1), "replicator listed", this::markListed);
    }
  }

  @Override
  public void restart() {
    stop();
    start();
  }

  @Override
  public void stop() {
    incarnation++;
    work.clear();
    busy = false;
    secrets.stop();
    namespaces.stop();
  }

  @Override
  public boolean serves(ClusterState state, String namespace, int k, boolean rotated) {
    return state
        .get(ResourceType.SECRET, namespace, Workload.secretName(k))
        .map(secret -> Workload.holds(secret, k, rotated))
        .orElse(false);
  }

  private void secretSeen(int mine, Informer cache, ObjectNode secret) {
    String namespace = Meta.namespace(secret);
    int source = Copies.sourceIndex(Meta.name(secret));
    if (Workload.INSTALL_NAMESPACE.equals(namespace) && source >= 0) {
      // replicateResourceToMatchingNamespacesByLabel: a LIST of the matching namespaces first.
      enqueue(mine, new Step(source, null, cache));
      return;
    }
    int copy = Copies.copyIndex(Meta.name(secret));
    if (copy >= 0 && Copies.isTarget(copy, namespace)) {
      enqueue(mine, new Step(copy, namespace, cache));
    }
  }

  private void copyGone(int mine, Informer cache, ObjectNode last) {
    int copy = Copies.copyIndex(Meta.name(last));
    if (copy >= 0 && Copies.isTarget(copy, Meta.namespace(last))) {
      enqueue(mine, new Step(copy, Meta.namespace(last), cache));
    }
  }

  private void replicate(int mine, Informer cache, int k, List<String> targets) {
    for (String namespace : targets) {
      if (Copies.isTarget(k, namespace)) {
        enqueue(mine, new Step(k, namespace, cache));
      }
    }
  }

  /** A LIST of the namespaces resource {@code k} selects ({@code namespace} null), or one copy. */
  private record Step(int k, String namespace, Informer cache) {}

  private void enqueue(int mine, Step step) {
    if (mine != incarnation) {
      return;
    }
    work.add(step);
    if (!busy) {
      busy = true;
      api.loop().schedule(Duration.ZERO, "replicator works", () -> pump(mine));
    }
  }

  /**
   * The handlers' work, one step at a time as client-go runs an informer's handlers: a step that
   * sends a request waits for a token first; a copy already like its source sends nothing.
   */
  private void pump(int mine) {
    if (mine != incarnation) {
      return;
    }
    Step step;
    while ((step = work.poll()) != null) {
      Step now = step;
      if (now.namespace() == null) {
        api.loop()
            .schedule(
                throttle.reserve(),
                "replicator lists namespaces",
                () -> {
                  if (mine != incarnation) {
                    return;
                  }
                  try {
                    List<String> targets = new ArrayList<>();
                    api.list(IDENTITY, ResourceType.NAMESPACE, null)
                        .items()
                        .forEach(n -> targets.add(Meta.name(n)));
                    replicate(mine, now.cache(), now.k(), targets);
                  } catch (ApiException failed) {
                    // logged; the next event or resync tries again
                  }
                  pump(mine);
                });
        return;
      }
      Optional<ObjectNode> wanted = wanted(now);
      if (wanted.isPresent()) {
        api.loop()
            .schedule(
                throttle.reserve(),
                "replicator writes",
                () -> {
                  write(mine, now);
                  pump(mine);
                });
        return;
      }
    }
    busy = false;
  }

  /** The copy to write for a step, when the cache says it is missing or differs. */
  private static Optional<ObjectNode> wanted(Step step) {
    Optional<ObjectNode> source =
        step.cache().get(Workload.INSTALL_NAMESPACE, Workload.sourceSecret(step.k()));
    if (source.isEmpty()) {
      return Optional.empty();
    }
    Optional<ObjectNode> live = step.cache().get(step.namespace(), Workload.secretName(step.k()));
    ObjectNode wanted = Copies.copyOf(source.get(), step.k(), step.namespace());
    if (live.isPresent() && Copies.sameData(live.get(), wanted)) {
      return Optional.empty();
    }
    live.ifPresent(
        l -> ((ObjectNode) wanted.get("metadata")).put("resourceVersion", Meta.resourceVersion(l)));
    return Optional.of(wanted);
  }

  private void write(int mine, Step step) {
    if (mine != incarnation) {
      return;
    }
    Optional<ObjectNode> wanted = wanted(step);
    if (wanted.isEmpty()) {
      return;
    }
    try {
      if (wanted.get().path("metadata").has("resourceVersion")) {
        api.update(IDENTITY, wanted.get());
      } else {
        api.create(IDENTITY, wanted.get());
      }
    } catch (ApiException failed) {
      // A conflict or an already-existing copy: the watch brings the newer state back.
    }
  }
}
