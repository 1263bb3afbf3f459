package io.kuik.kube.syncer;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.kube.SlimStore;
import io.kuik.model.ObservedNamespace;
import io.kuik.model.ResourceId;
import io.kuik.model.RewrittenPod;
import io.kuik.model.Validated;
import io.kuik.ports.InformerView;
import java.util.Collection;
import java.util.Optional;

/**
 * The syncer's informer caches, and the core's read-only {@link InformerView} over them: the
 * records of namespaces and of rewritten pods (by namespace) and the Secrets of the cluster
 * resource namespace, each in a {@link SlimStore} that the informer writes itself; the routing
 * resources in the {@link RoutingCache} that the {@link Intake} keeps, converted once. The same
 * classes hold the simulated informers' objects in the simulator.
 *
 * <p>The stores may run ahead of the inputs still queued for the core: the core is built for that
 * (every change it sees is announced again), and nothing here blocks or asks the API server.
 */
public final class InformerStores implements InformerView {

  private final String clusterResourceNamespace;
  private final RoutingCache routing = new RoutingCache();

  /** The core's records of the rewritten pods, grouped by namespace: the pod informer's cache. */
  private final SlimStore<Pod, RewrittenPod> pods =
      new SlimStore<>(Records::pod, Records::pod, RewrittenPod::namespace, RewrittenPod::name);

  /** The core's records of the namespaces: the namespace informer's cache. */
  private final SlimStore<Namespace, ObservedNamespace> namespaces =
      new SlimStore<>(Records::namespace, Records::namespace, null, null);

  /** The Secrets of the cluster resource namespace, whole: the Secret informer's cache. */
  private final SlimStore<Secret, Secret> sources =
      new SlimStore<>(secret -> secret, (secret, resourceVersion) -> secret, null, null);

  public InformerStores(String clusterResourceNamespace) {
    this.clusterResourceNamespace = clusterResourceNamespace;
  }

  /** The pod informer's cache. */
  public SlimStore<Pod, RewrittenPod> podStore() {
    return pods;
  }

  /** The namespace informer's cache. */
  public SlimStore<Namespace, ObservedNamespace> namespaceStore() {
    return namespaces;
  }

  /** The cache of the informer on the Secrets of the cluster resource namespace. */
  public SlimStore<Secret, Secret> sourceStore() {
    return sources;
  }

  RoutingCache routing() {
    return routing;
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
    return sources.record(clusterResourceNamespace + "/" + name);
  }

  /** How many namespaces the informers hold, for the pairs gauge. */
  int namespaceCount() {
    return namespaces.size();
  }

  /** How many routing resources, for the pairs gauge. */
  int routingCount() {
    return routing.size();
  }
}
