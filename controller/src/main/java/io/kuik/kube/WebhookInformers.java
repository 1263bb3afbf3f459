package io.kuik.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResources;
import io.kuik.model.Validated;
import io.kuik.model.crd.ImageAlternative;
import io.kuik.model.crd.ImageMirror;
import io.kuik.ports.CredentialSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The webhook's four informers, exactly what its ServiceAccount may read (chart/files/
 * webhook-rbac.yaml): ImageAlternatives, ImageMirrors and namespaces cluster-wide, and the Secrets
 * of the cluster resource namespace only. Routing resources go to a {@link WebhookRouting} as they
 * change; namespaces and Secrets are read from the informers' stores at admission time, locally and
 * without blocking.
 */
final class WebhookInformers implements AutoCloseable {

  private final SharedIndexInformer<ImageAlternative> alternatives;
  private final SharedIndexInformer<ImageMirror> mirrors;
  private final SharedIndexInformer<Namespace> namespaces;
  private final SharedIndexInformer<Secret> clusterSecrets;
  private final String clusterResourceNamespace;

  WebhookInformers(KubernetesClient client, String clusterResourceNamespace) {
    this.clusterResourceNamespace = clusterResourceNamespace;
    alternatives = client.resources(ImageAlternative.class).runnableInformer(0);
    mirrors = client.resources(ImageMirror.class).runnableInformer(0);
    namespaces = client.namespaces().runnableInformer(0);
    clusterSecrets = client.secrets().inNamespace(clusterResourceNamespace).runnableInformer(0);
  }

  /**
   * Feeds {@code routing} and starts the informers; completes once all have listed (synced) and
   * {@code routing} holds every resource they listed, or fails with the first that could not. The
   * informers deliver their add notifications on a thread of their own, after their start
   * completed, so the listed resources are handed over from the stores too: a webhook that turned
   * ready with half its index would admit pods unrouted.
   */
  CompletableFuture<Void> start(WebhookRouting routing) {
    alternatives.addEventHandler(
        WebhookInformers.<ImageAlternative>handler(
            RoutingKind.IMAGE_ALTERNATIVE, routing, RoutingResources::from));
    mirrors.addEventHandler(
        WebhookInformers.<ImageMirror>handler(
            RoutingKind.IMAGE_MIRROR, routing, RoutingResources::from));
    List<CompletableFuture<Void>> started =
        all().stream().map(informer -> informer.start().toCompletableFuture()).toList();
    return CompletableFuture.allOf(started.toArray(CompletableFuture[]::new))
        .thenRun(() -> routing.listed(this::listedResources));
  }

  /** Every routing resource the stores hold, validated. */
  private List<Validated> listedResources() {
    return Stream.concat(
            alternatives.getStore().list().stream().map(RoutingResources::from),
            mirrors.getStore().list().stream().map(RoutingResources::from))
        .toList();
  }

  /** The labels of a namespace the informer holds; empty when it holds none of that name. */
  Optional<Map<String, String>> namespaceLabels(String name) {
    return Optional.ofNullable(name)
        .map(namespaces.getStore()::getByKey)
        .map(
            namespace -> {
              Map<String, String> labels = namespace.getMetadata().getLabels();
              return labels == null ? Map.<String, String>of() : Map.copyOf(labels);
            });
  }

  /** The Secrets of the cluster resource namespace, the credentials probes are sent with. */
  CredentialSource credentials() {
    return name ->
        Optional.ofNullable(
            clusterSecrets
                .getStore()
                .getByKey(Cache.namespaceKeyFunc(clusterResourceNamespace, name)));
  }

  @Override
  public void close() {
    all().forEach(SharedIndexInformer::stop);
  }

  private List<SharedIndexInformer<?>> all() {
    return List.of(alternatives, mirrors, namespaces, clusterSecrets);
  }

  /** Validates each added or changed resource once, and forgets a deleted one. */
  private static <T extends HasMetadata> ResourceEventHandler<T> handler(
      RoutingKind kind, WebhookRouting routing, Function<T, Validated> validate) {
    Consumer<T> changed = resource -> routing.changed(validate.apply(resource));
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T resource) {
        changed.accept(resource);
      }

      @Override
      public void onUpdate(T before, T after) {
        changed.accept(after);
      }

      @Override
      public void onDelete(T last, boolean finalStateUnknown) {
        routing.deleted(new ResourceId(kind, last.getMetadata().getName()));
      }
    };
  }
}
