package io.kuik.kube;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import io.fabric8.kubernetes.client.informers.cache.Store;
import io.kuik.model.ResourceId;
import io.kuik.model.Validated;
import io.kuik.ports.InformerView;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The core's {@link InformerView} over fabric8's informer stores: namespaces, pods (through the
 * informer's namespace index) and the Secrets of the cluster resource namespace are read where the
 * informers keep them; routing resources come from the {@link RoutingCache}, converted once.
 *
 * <p>The stores may run ahead of the events still queued for the core: the core is built for that
 * (every change it sees is announced again), and nothing here blocks or asks the API server.
 */
final class InformerStores implements InformerView {

  private final RoutingCache routing;
  private final Store<Namespace> namespaces;
  private final Indexer<Pod> pods;
  private final Store<Secret> clusterSecrets;
  private final String clusterResourceNamespace;

  InformerStores(
      RoutingCache routing,
      Store<Namespace> namespaces,
      Indexer<Pod> pods,
      Store<Secret> clusterSecrets,
      String clusterResourceNamespace) {
    this.routing = routing;
    this.namespaces = namespaces;
    this.pods = pods;
    this.clusterSecrets = clusterSecrets;
    this.clusterResourceNamespace = clusterResourceNamespace;
  }

  @Override
  public Collection<Validated> routingResources() {
    return routing.all();
  }

  @Override
  public Optional<Validated> routingResource(ResourceId id) {
    return routing.get(id);
  }

  @Override
  public Collection<Namespace> namespaces() {
    return List.copyOf(namespaces.list());
  }

  @Override
  public Optional<Namespace> namespace(String name) {
    return Optional.ofNullable(namespaces.getByKey(name));
  }

  @Override
  public Collection<Pod> pods(String namespace) {
    return List.copyOf(pods.byIndex(Cache.NAMESPACE_INDEX, namespace));
  }

  @Override
  public Optional<Secret> clusterSecret(String name) {
    return Optional.ofNullable(
        clusterSecrets.getByKey(Cache.namespaceKeyFunc(clusterResourceNamespace, name)));
  }

  /** How many namespaces the informers hold, for the pairs gauge. */
  int namespaceCount() {
    return namespaces.list().size();
  }
}
