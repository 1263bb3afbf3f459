package io.kuik.sim.hosts;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResourceJson;
import io.kuik.model.Validated;
import io.kuik.ports.InformerView;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import tools.jackson.databind.node.ObjectNode;

/**
 * The syncer's informer caches as the typed objects the core reads. Each object is converted once,
 * when its change arrives, so the core's reads cost nothing.
 */
final class TypedCaches implements InformerView {

  /** One change, as the typed objects before and after (either may be null). */
  record Change(Object before, Object after) {}

  private final Map<ResourceId, Validated> resources =
      new TreeMap<>(java.util.Comparator.comparing(ResourceId::toString));
  private final Map<String, Namespace> namespaces = new TreeMap<>();
  private final Map<String, Map<String, Pod>> pods = new HashMap<>();
  private final Map<String, Secret> secrets = new TreeMap<>();

  Change apply(ResourceType type, ObjectNode before, ObjectNode after) {
    if (type.equals(ResourceType.POD)) {
      Pod old = before == null ? null : Json.MAPPER.treeToValue(before, Pod.class);
      Pod now = after == null ? null : Json.MAPPER.treeToValue(after, Pod.class);
      String ns = Meta.namespace(after != null ? after : before);
      String name = Meta.name(after != null ? after : before);
      if (now == null) {
        Map<String, Pod> inNamespace = pods.get(ns);
        if (inNamespace != null) {
          inNamespace.remove(name);
        }
      } else {
        pods.computeIfAbsent(ns, n -> new TreeMap<>()).put(name, now);
      }
      return new Change(old, now);
    }
    if (type.equals(ResourceType.NAMESPACE)) {
      return new Change(
          null, put(namespaces, Meta.name(after != null ? after : before), after, Namespace.class));
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
  public Collection<Namespace> namespaces() {
    return List.copyOf(namespaces.values());
  }

  @Override
  public Optional<Namespace> namespace(String name) {
    return Optional.ofNullable(namespaces.get(name));
  }

  @Override
  public Collection<Pod> pods(String namespace) {
    return List.copyOf(pods.getOrDefault(namespace, Map.of()).values());
  }

  @Override
  public Optional<Secret> clusterSecret(String name) {
    return Optional.ofNullable(secrets.get(name));
  }
}
