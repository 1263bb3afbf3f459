package io.kuik.sim.bench;

import io.kuik.sim.client.Informer;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Meta;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * A baseline modelled on kubernetes-replicator's documented model: an informer on every Secret of
 * the cluster and one on namespaces; when a source Secret changes, or a namespace appears, it
 * writes the copies that differ from its cache; when a copy is changed or deleted by someone else,
 * it writes it back. Its informers resync every 30 minutes (the replicator's default), which writes
 * nothing when every copy matches. A restart relists everything.
 */
final class SecretReplicator implements Contender {

  static final Duration RESYNC = Duration.ofMinutes(30);
  static final Identity IDENTITY = Identity.person("replicator", "system:masters");

  private final ApiServer api;
  private final Workload workload;
  private Informer secrets;
  private Informer namespaces;
  private boolean namespacesListed;

  SecretReplicator(KuikWorld world, Workload workload) {
    this.api = world.api();
    this.workload = workload;
    world.createNamespace(Workload.INSTALL_NAMESPACE, java.util.Map.of());
    world.cluster().trace().alias(IDENTITY, "replicator");
  }

  @Override
  public String actor() {
    return "replicator";
  }

  @Override
  public String watcherPrefix() {
    return "replicator/";
  }

  @Override
  public void start() {
    Informer s =
        new Informer(api, IDENTITY, "replicator/secrets", ResourceType.SECRET, null, null, RESYNC);
    Informer n =
        new Informer(
            api, IDENTITY, "replicator/namespaces", ResourceType.NAMESPACE, null, null, RESYNC);
    s.addHandler(
        new Informer.Handler() {
          @Override
          public void onAdd(ObjectNode object) {
            secretSeen(s, object);
          }

          @Override
          public void onUpdate(ObjectNode old, ObjectNode now) {
            secretSeen(s, now);
          }

          @Override
          public void onDelete(ObjectNode last) {
            copyGone(s, last);
          }
        });
    n.addHandler(
        new Informer.Handler() {
          @Override
          public void onAdd(ObjectNode object) {
            // Namespaces of the first list were served when the sources were listed.
            if (s.hasSynced() && namespacesListed) {
              for (int k = 0; k < Workload.ALWAYS + Workload.ON_FAILURE; k++) {
                replicate(s, k, List.of(Meta.name(object)));
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
    secrets.stop();
    namespaces.stop();
    start();
  }

  private void secretSeen(Informer cache, ObjectNode secret) {
    String namespace = Meta.namespace(secret);
    int source = Copies.sourceIndex(Meta.name(secret));
    if (Workload.INSTALL_NAMESPACE.equals(namespace) && source >= 0) {
      replicate(cache, source, Copies.targets(workload, source));
      return;
    }
    int copy = Copies.copyIndex(Meta.name(secret));
    if (copy >= 0 && Copies.isTarget(copy, namespace)) {
      replicate(cache, copy, List.of(namespace));
    }
  }

  private void copyGone(Informer cache, ObjectNode last) {
    int copy = Copies.copyIndex(Meta.name(last));
    if (copy >= 0 && Copies.isTarget(copy, Meta.namespace(last))) {
      replicate(cache, copy, List.of(Meta.namespace(last)));
    }
  }

  /** Writes the copies that differ from the cache; reads nothing from the API server. */
  private void replicate(Informer cache, int k, List<String> targets) {
    Optional<ObjectNode> source = cache.get(Workload.INSTALL_NAMESPACE, Workload.sourceSecret(k));
    if (source.isEmpty()) {
      return;
    }
    for (String namespace : targets) {
      Optional<ObjectNode> live = cache.get(namespace, Workload.secretName(k));
      ObjectNode wanted = Copies.copyOf(source.get(), k, namespace);
      try {
        if (live.isEmpty()) {
          api.create(IDENTITY, wanted);
        } else if (!Copies.sameData(live.get(), wanted)) {
          ((ObjectNode) wanted.get("metadata"))
              .put("resourceVersion", Meta.resourceVersion(live.get()));
          api.update(IDENTITY, wanted);
        }
      } catch (ApiException failed) {
        // A conflict or an already-existing copy: the watch brings the newer state back.
      }
    }
  }
}
