package io.kuik.kube.webhook;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.kuik.kube.InformerHealth;
import io.kuik.kube.RoutingInformers;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import io.kuik.model.Validated;
import io.kuik.ports.CredentialSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The webhook's four informers, exactly what its ServiceAccount may read (chart/files/
 * webhook-rbac.yaml): ImageAlternatives, ImageMirrors and namespaces cluster-wide, and the Secrets
 * of the cluster resource namespace only. Routing resources go to a {@link WebhookRouting} as they
 * change; namespaces and Secrets are read from the informers' stores at admission time, locally and
 * without blocking.
 */
final class WebhookInformers implements AutoCloseable {

  private final SharedIndexInformer<GenericKubernetesResource> alternatives;
  private final SharedIndexInformer<GenericKubernetesResource> mirrors;
  private final SharedIndexInformer<Namespace> namespaces;
  private final SharedIndexInformer<Secret> clusterSecrets;
  private final String clusterResourceNamespace;

  WebhookInformers(KubernetesClient client, String clusterResourceNamespace) {
    this.clusterResourceNamespace = clusterResourceNamespace;
    alternatives = RoutingInformers.of(client, RoutingKind.IMAGE_ALTERNATIVE);
    mirrors = RoutingInformers.of(client, RoutingKind.IMAGE_MIRROR);
    namespaces = client.namespaces().withLimit(RoutingInformers.LIST_PAGE).runnableInformer(0);
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
    alternatives.addEventHandler(handler(RoutingKind.IMAGE_ALTERNATIVE, routing));
    mirrors.addEventHandler(handler(RoutingKind.IMAGE_MIRROR, routing));
    InformerHealth.reportStop(alternatives, "imagealternatives");
    InformerHealth.reportStop(mirrors, "imagemirrors");
    InformerHealth.reportStop(namespaces, "namespaces");
    InformerHealth.reportStop(clusterSecrets, "the Secrets of " + clusterResourceNamespace);
    List<CompletableFuture<Void>> started =
        all().stream().map(informer -> informer.start().toCompletableFuture()).toList();
    return CompletableFuture.allOf(started.toArray(CompletableFuture[]::new))
        .thenRun(() -> routing.listed(this::listedResources));
  }

  /** Every routing resource the stores hold, validated. */
  private List<Validated> listedResources() {
    return Stream.concat(
            alternatives.getStore().list().stream()
                .map(
                    resource -> RoutingInformers.validate(RoutingKind.IMAGE_ALTERNATIVE, resource)),
            mirrors.getStore().list().stream()
                .map(resource -> RoutingInformers.validate(RoutingKind.IMAGE_MIRROR, resource)))
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

  /** Whether no informer has stopped (one that stopped never sees a change again). */
  boolean noneStopped() {
    return InformerHealth.noneStopped(all());
  }

  @Override
  public void close() {
    all().forEach(SharedIndexInformer::stop);
  }

  private List<SharedIndexInformer<?>> all() {
    return List.of(alternatives, mirrors, namespaces, clusterSecrets);
  }

  /**
   * Validates each added or changed resource once, leniently (a malformed one is invalid), and
   * forgets a deleted one.
   */
  private static ResourceEventHandler<GenericKubernetesResource> handler(
      RoutingKind kind, WebhookRouting routing) {
    Consumer<GenericKubernetesResource> changed =
        resource -> routing.changed(RoutingInformers.validate(kind, resource));
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(GenericKubernetesResource resource) {
        changed.accept(resource);
      }

      @Override
      public void onUpdate(GenericKubernetesResource before, GenericKubernetesResource after) {
        changed.accept(after);
      }

      @Override
      public void onDelete(GenericKubernetesResource last, boolean finalStateUnknown) {
        routing.deleted(new ResourceId(kind, last.getMetadata().getName()));
      }
    };
  }
}
