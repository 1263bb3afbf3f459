package io.kuik.kube.syncer;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kuik.kube.InformerHealth;
import io.kuik.kube.RoutingInformers;
import io.kuik.model.ResourceId;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.RoutingKind;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The syncer's five shared informers (docs/behaviour.md#what-the-syncer-may-read): the pods the
 * webhook rewrote (its label, selected on the API server) and namespaces cluster-wide, both routing
 * kinds, and Secrets of the cluster resource namespace only. There is no cluster-wide Secret
 * informer, and the syncer's RBAC grants none. Every list is paginated ({@link
 * RoutingInformers#LIST_PAGE}). Their caches are the {@link InformerStores}: pods and namespaces
 * are kept as the core's records, not as fabric8's objects.
 *
 * <p>Every change becomes a {@link Notification}, handed over as the informer announced it; the
 * {@link Intake} decides what it brings the core. No informer resync: the core's own resync
 * restores deleted Secrets, at one reconcile per pair instead of one update event per pod.
 */
final class SyncerInformers implements AutoCloseable {

  private final SharedIndexInformer<Pod> pods;
  private final SharedIndexInformer<Namespace> namespaces;
  private final SharedIndexInformer<GenericKubernetesResource> alternatives;
  private final SharedIndexInformer<GenericKubernetesResource> mirrors;
  private final SharedIndexInformer<Secret> sources;
  private final String clusterResourceNamespace;

  SyncerInformers(KubernetesClient client, InformerStores stores, String clusterResourceNamespace) {
    this.clusterResourceNamespace = clusterResourceNamespace;
    pods =
        client
            .pods()
            .inAnyNamespace()
            .withLabel(RewriteAnnotations.REWRITTEN_LABEL, RewriteAnnotations.REWRITTEN_LABEL_VALUE)
            .withLimit(RoutingInformers.LIST_PAGE)
            .runnableInformer(0)
            .removeNamespaceIndex()
            .itemStore(stores.podStore());
    namespaces =
        client
            .namespaces()
            .withLimit(RoutingInformers.LIST_PAGE)
            .runnableInformer(0)
            .removeNamespaceIndex()
            .itemStore(stores.namespaceStore());
    alternatives = RoutingInformers.of(client, RoutingKind.IMAGE_ALTERNATIVE);
    mirrors = RoutingInformers.of(client, RoutingKind.IMAGE_MIRROR);
    sources =
        client
            .secrets()
            .inNamespace(clusterResourceNamespace)
            .withLimit(RoutingInformers.LIST_PAGE)
            .runnableInformer(0)
            .removeNamespaceIndex()
            .itemStore(stores.sourceStore());
  }

  /**
   * Hands every change to {@code notified} and starts the informers; completes once all have listed
   * (synced), or fails with the first that could not. Called from the informers' threads, in each
   * informer's own order: {@code notified} hands the notification over and returns at once.
   */
  CompletableFuture<Void> start(Consumer<Notification> notified) {
    pods.addEventHandler(
        handler((before, after) -> notified.accept(new Notification.PodNotified(before, after))));
    namespaces.addEventHandler(
        handler(
            (before, after) -> notified.accept(new Notification.NamespaceNotified(before, after))));
    sources.addEventHandler(
        handler(
            (before, after) ->
                notified.accept(
                    new Notification.SourceNotified(name(after != null ? after : before)))));
    alternatives.addEventHandler(routingHandler(RoutingKind.IMAGE_ALTERNATIVE, notified));
    mirrors.addEventHandler(routingHandler(RoutingKind.IMAGE_MIRROR, notified));
    InformerHealth.reportStop(pods, "pods");
    InformerHealth.reportStop(namespaces, "namespaces");
    InformerHealth.reportStop(alternatives, "imagealternatives");
    InformerHealth.reportStop(mirrors, "imagemirrors");
    InformerHealth.reportStop(sources, "the Secrets of " + clusterResourceNamespace);
    List<CompletableFuture<Void>> started =
        all().stream().map(informer -> informer.start().toCompletableFuture()).toList();
    return CompletableFuture.allOf(started.toArray(CompletableFuture[]::new));
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
    return List.of(pods, namespaces, alternatives, mirrors, sources);
  }

  private static String name(HasMetadata object) {
    return object.getMetadata().getName();
  }

  /** A routing kind's changes, each object read leniently: a malformed one is invalid. */
  private static ResourceEventHandler<GenericKubernetesResource> routingHandler(
      RoutingKind kind, Consumer<Notification> notified) {
    return handler(
        (before, after) -> {
          ResourceId id = new ResourceId(kind, name(after != null ? after : before));
          notified.accept(
              new Notification.RoutingNotified(
                  id, after == null ? null : RoutingInformers.validate(kind, after)));
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
