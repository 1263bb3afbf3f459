package io.kuik.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kuik.model.ObservedNamespace;
import io.kuik.model.ResourceId;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.RewrittenPod;
import io.kuik.model.RoutingKind;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * The syncer's five shared informers (docs/behaviour.md#what-the-syncer-may-read): the pods the
 * webhook rewrote (its label, selected on the API server) and namespaces cluster-wide, both routing
 * kinds, and Secrets of the cluster resource namespace only. There is no cluster-wide Secret
 * informer, and the syncer's RBAC grants none. Every list is paginated ({@link #LIST_PAGE}). Pods
 * and namespaces are cached as the core's records ({@link SlimStore}), not as fabric8's objects.
 *
 * <p>No informer resync: the periodic resync that restores deleted Secrets is the core's own {@code
 * onResync()}, driven by a timer, which costs one reconcile per pair instead of one update event
 * per pod of the cluster.
 */
final class SyncerInformers implements AutoCloseable {

  /**
   * Objects per page of each informer's list, on start and on every relist: client-go's pager asks
   * 500 at a time, so no single response holds a whole large cluster.
   */
  static final long LIST_PAGE = 500;

  private final SharedIndexInformer<Pod> pods;
  private final SharedIndexInformer<Namespace> namespaces;
  private final SharedIndexInformer<GenericKubernetesResource> alternatives;
  private final SharedIndexInformer<GenericKubernetesResource> mirrors;
  private final SharedIndexInformer<Secret> clusterSecrets;
  private final String clusterResourceNamespace;

  /** The core's records of the rewritten pods, grouped by namespace: the pod informer's cache. */
  private final SlimStore<Pod, RewrittenPod> podRecords =
      new SlimStore<>(Records::pod, Records::pod, RewrittenPod::namespace, RewrittenPod::name);

  /** The core's records of the namespaces: the namespace informer's cache. */
  private final SlimStore<Namespace, ObservedNamespace> namespaceRecords =
      new SlimStore<>(Records::namespace, Records::namespace, null, null);

  SyncerInformers(KubernetesClient client, String clusterResourceNamespace) {
    this.clusterResourceNamespace = clusterResourceNamespace;
    pods =
        client
            .pods()
            .inAnyNamespace()
            .withLabel(RewriteAnnotations.REWRITTEN_LABEL, RewriteAnnotations.REWRITTEN_LABEL_VALUE)
            .withLimit(LIST_PAGE)
            .runnableInformer(0)
            .removeNamespaceIndex()
            .itemStore(podRecords);
    namespaces =
        client
            .namespaces()
            .withLimit(LIST_PAGE)
            .runnableInformer(0)
            .removeNamespaceIndex()
            .itemStore(namespaceRecords);
    alternatives = RoutingInformers.of(client, RoutingKind.IMAGE_ALTERNATIVE);
    mirrors = RoutingInformers.of(client, RoutingKind.IMAGE_MIRROR);
    clusterSecrets =
        client
            .secrets()
            .inNamespace(clusterResourceNamespace)
            .withLimit(LIST_PAGE)
            .runnableInformer(0);
  }

  /**
   * Hands every event to {@code events} and starts the informers; completes once all have listed
   * (synced), or fails with the first that could not.
   */
  CompletableFuture<Void> start(ClusterEvents events) {
    pods.addEventHandler(
        handler(
            (before, after) -> {
              RewrittenPod was = before == null ? null : Records.pod(before);
              RewrittenPod is = after == null ? null : Records.pod(after);
              if (was == null || !was.equals(is)) { // a status update changes no record
                events.podChanged(was, is);
              }
            }));
    namespaces.addEventHandler(
        handler(
            (before, after) -> {
              if (after == null) {
                events.namespaceDeleted(name(before));
              } else if (before == null
                  || !Records.namespace(before).equals(Records.namespace(after))) {
                // Only its labels and its deletion matter: an annotation, a finalizer or a relist
                // of 10,000 unchanged namespaces must not reconcile 20 pairs each.
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
        routing, namespaceRecords, podRecords, clusterSecrets.getStore(), clusterResourceNamespace);
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
