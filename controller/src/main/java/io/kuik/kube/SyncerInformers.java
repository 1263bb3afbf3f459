package io.kuik.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * The syncer's five shared informers (docs/behaviour.md#what-the-syncer-may-read): pods and
 * namespaces cluster-wide, both routing kinds, and Secrets of the cluster resource namespace only.
 * There is no cluster-wide Secret informer, and the syncer's RBAC grants none.
 *
 * <p>No informer resync: the periodic resync that restores deleted Secrets is the core's own {@code
 * onResync()}, driven by a timer, which costs one reconcile per pair instead of one update event
 * per pod of the cluster.
 */
final class SyncerInformers implements AutoCloseable {

  private final SharedIndexInformer<Pod> pods;
  private final SharedIndexInformer<Namespace> namespaces;
  private final SharedIndexInformer<GenericKubernetesResource> alternatives;
  private final SharedIndexInformer<GenericKubernetesResource> mirrors;
  private final SharedIndexInformer<Secret> clusterSecrets;
  private final String clusterResourceNamespace;

  SyncerInformers(KubernetesClient client, String clusterResourceNamespace) {
    this.clusterResourceNamespace = clusterResourceNamespace;
    pods = client.pods().inAnyNamespace().runnableInformer(0);
    namespaces = client.namespaces().runnableInformer(0);
    alternatives = RoutingInformers.of(client, RoutingKind.IMAGE_ALTERNATIVE);
    mirrors = RoutingInformers.of(client, RoutingKind.IMAGE_MIRROR);
    clusterSecrets = client.secrets().inNamespace(clusterResourceNamespace).runnableInformer(0);
  }

  /**
   * Hands every event to {@code events} and starts the informers; completes once all have listed
   * (synced), or fails with the first that could not.
   */
  CompletableFuture<Void> start(ClusterEvents events) {
    pods.addEventHandler(handler(events::podChanged));
    namespaces.addEventHandler(
        handler(
            (before, after) -> {
              if (after == null) {
                events.namespaceDeleted(name(before));
              } else {
                events.namespaceChanged(name(after));
              }
            }));
    clusterSecrets.addEventHandler(
        handler(
            (before, after) -> events.clusterSecretChanged(name(after != null ? after : before))));
    alternatives.addEventHandler(routingHandler(RoutingKind.IMAGE_ALTERNATIVE, events));
    mirrors.addEventHandler(routingHandler(RoutingKind.IMAGE_MIRROR, events));
    InformerHealth.reportStop(pods, "pods");
    InformerHealth.reportStop(namespaces, "namespaces");
    InformerHealth.reportStop(alternatives, "imagealternatives");
    InformerHealth.reportStop(mirrors, "imagemirrors");
    InformerHealth.reportStop(clusterSecrets, "the Secrets of " + clusterResourceNamespace);
    List<CompletableFuture<Void>> started =
        all().stream().map(informer -> informer.start().toCompletableFuture()).toList();
    return CompletableFuture.allOf(started.toArray(CompletableFuture[]::new));
  }

  InformerStores view(RoutingCache routing) {
    return new InformerStores(
        routing,
        namespaces.getStore(),
        pods.getIndexer(),
        clusterSecrets.getStore(),
        clusterResourceNamespace);
  }

  /** Whether no informer has stopped (one that stopped never sees a change again). */
  boolean noneStopped() {
    return InformerHealth.noneStopped(all());
  }

  @Override
  public void close() {
    all().forEach(SharedIndexInformer::stop);
  }

  private List<SharedIndexInformer<?>> all() {
    return List.of(pods, namespaces, alternatives, mirrors, clusterSecrets);
  }

  private static String name(HasMetadata object) {
    return object.getMetadata().getName();
  }

  /** A routing kind's changes, each object read leniently: a malformed one is invalid. */
  private static ResourceEventHandler<GenericKubernetesResource> routingHandler(
      RoutingKind kind, ClusterEvents events) {
    return handler(
        (before, after) -> {
          if (after == null) {
            events.routingResourceDeleted(new ResourceId(kind, name(before)));
          } else {
            events.routingResourceChanged(RoutingInformers.validate(kind, after));
          }
        });
  }

  /** One callback for add (before null), update, and delete (after null). */
  private static <T> ResourceEventHandler<T> handler(BiConsumer<T, T> changed) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T object) {
        changed.accept(null, object);
      }

      @Override
      public void onUpdate(T before, T after) {
        changed.accept(before, after);
      }

      @Override
      public void onDelete(T last, boolean finalStateUnknown) {
        changed.accept(last, null);
      }
    };
  }
}
