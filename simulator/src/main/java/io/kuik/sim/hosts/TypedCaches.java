package io.kuik.sim.hosts;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.model.ObservedNamespace;
import io.kuik.model.ResourceId;
import io.kuik.model.RewrittenPod;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResourceJson;
import io.kuik.model.Validated;
import io.kuik.ports.InformerView;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import tools.jackson.databind.node.ObjectNode;

/**
 * The webhook host's informer caches as the typed objects its routing reads: routing resources,
 * namespaces and the Secrets of the cluster resource namespace, each converted once, when its
 * change arrives. (The syncer host keeps production's own caches, {@code InformerStores}.)
 */
final class TypedCaches implements InformerView {

  /** One change, as the typed objects before and after (either may be null). */
  record Change(Object before, Object after) {}

  private final Map<ResourceId, Validated> resources =
      new TreeMap<>(java.util.Comparator.comparing(ResourceId::toString));
  private final Map<String, ObservedNamespace> namespaces = new TreeMap<>();
  private final Map<String, Secret> secrets = new TreeMap<>();

  Change apply(ResourceType type, ObjectNode before, ObjectNode after) {
    if (type.equals(ResourceType.NAMESPACE)) {
      String name = Meta.name(after != null ? after : before);
      if (after == null) {
        namespaces.remove(name);
        return new Change(null, null);
      }
      ObservedNamespace now =
          new ObservedNamespace(name, Meta.labels(after), Meta.deletionTimestamp(after) != null);
      namespaces.put(name, now);
      return new Change(null, now);
    }
    if (type.equals(ResourceType.SECRET)) {
      return new Change(
          null, put(secrets, Meta.name(after != null ? after : before), after, Secret.class));
    }
    ResourceId id = resourceId(type, after != null ? after : before);
    if (after == null) {
      resources.remove(id);
      return new Change(null, null);
    }
    // Read leniently, as the production informers do: a malformed object is an invalid resource.
    Validated validated = RoutingResourceJson.validate(id.kind(), after);
    resources.put(id, validated);
    return new Change(null, validated);
  }

  static ResourceId resourceId(ResourceType type, ObjectNode object) {
    RoutingKind kind =
        type.equals(ResourceType.IMAGE_ALTERNATIVE)
            ? RoutingKind.IMAGE_ALTERNATIVE
            : RoutingKind.IMAGE_MIRROR;
    return new ResourceId(kind, Meta.name(object));
  }

  private static <T extends HasMetadata> T put(
      Map<String, T> cache, String name, ObjectNode after, Class<T> kind) {
    if (after == null) {
      cache.remove(name);
      return null;
    }
    T typed = Json.MAPPER.treeToValue(after, kind);
    cache.put(name, typed);
    return typed;
  }

  @Override
  public Collection<Validated> routingResources() {
    return List.copyOf(resources.values());
  }

  @Override
  public Optional<Validated> routingResource(ResourceId id) {
    return Optional.ofNullable(resources.get(id));
  }

  @Override
  public Collection<ObservedNamespace> namespaces() {
    return List.copyOf(namespaces.values());
  }

  @Override
  public Optional<ObservedNamespace> namespace(String name) {
    return Optional.ofNullable(namespaces.get(name));
  }

  /** The webhook reads no pod of the informers: it is handed the pod it routes. */
  @Override
  public Collection<RewrittenPod> pods(String namespace) {
    return List.of();
  }

  @Override
  public Optional<Secret> clusterSecret(String name) {
    return Optional.ofNullable(secrets.get(name));
  }
}
