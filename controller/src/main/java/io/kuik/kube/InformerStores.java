package io.kuik.kube;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Store;
import io.kuik.model.ObservedNamespace;
import io.kuik.model.ResourceId;
import io.kuik.model.RewrittenPod;
import io.kuik.model.Validated;
import io.kuik.ports.InformerView;
import java.util.Collection;
import java.util.Optional;

/**
 * The core's {@link InformerView} over the informers' caches: the records of namespaces and of
 * rewritten pods (by namespace) from their {@link SlimStore}s, the Secrets of the cluster resource
 * namespace from fabric8's store; routing resources come from the {@link RoutingCache}, converted
 * once.
 *
 * <p>The stores may run ahead of the events still queued for the core: the core is built for that
 * (every change it sees is announced again), and nothing here blocks or asks the API server.
 */
final class InformerStores implements InformerView {

  private final RoutingCache routing;
  private final SlimStore<Namespace, ObservedNamespace> namespaces;
  private final SlimStore<Pod, RewrittenPod> pods;
  private final Store<Secret> clusterSecrets;
  private final String clusterResourceNamespace;

  InformerStores(
      RoutingCache routing,
      SlimStore<Namespace, ObservedNamespace> namespaces,
      SlimStore<Pod, RewrittenPod> pods,
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
  public Collection<ObservedNamespace> namespaces() {
    return namespaces.records();
  }

  @Override
  public Optional<ObservedNamespace> namespace(String name) {
    return namespaces.record(name);
  }

  @Override
  public Collection<RewrittenPod> pods(String namespace) {
    return pods.group(namespace);
  }

  @Override
  public Optional<Secret> clusterSecret(String name) {
    return Optional.ofNullable(
        clusterSecrets.getByKey(Cache.namespaceKeyFunc(clusterResourceNamespace, name)));
  }

  /** How many namespaces the informers hold, for the pairs gauge. */
  int namespaceCount() {
    return namespaces.size();
  }
}
