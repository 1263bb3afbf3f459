package io.kuik.sim.world.admission;

import io.kuik.sim.world.api.ClusterState;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.YamlDocuments;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import tools.jackson.databind.node.ObjectNode;

/** A map of objects by type, namespace and name: just enough cluster for the gatekeepers. */
final class InMemoryClusterState implements ClusterState {

  private final TreeMap<String, ObjectNode> objects = new TreeMap<>();

  InMemoryClusterState put(ObjectNode object) {
    ResourceType type =
        ResourceType.ofKind(object.path("apiVersion").asString(), object.path("kind").asString())
            .orElseThrow(() -> new IllegalArgumentException("unknown kind in " + object));
    objects.put(key(type, namespace(object), Json.name(object)), object.deepCopy());
    return this;
  }

  InMemoryClusterState putAll(Collection<ObjectNode> all) {
    all.forEach(this::put);
    return this;
  }

  /** Stores every document of the YAML text. */
  InMemoryClusterState putYaml(String yaml) {
    return putAll(YamlDocuments.parse(yaml, "test"));
  }

  InMemoryClusterState remove(ResourceType type, String namespace, String name) {
    objects.remove(key(type, namespace, name));
    return this;
  }

  @Override
  public Optional<ObjectNode> get(ResourceType type, String namespace, String name) {
    return Optional.ofNullable(objects.get(key(type, namespace, name))).map(ObjectNode::deepCopy);
  }

  @Override
  public List<ObjectNode> list(ResourceType type, String namespace) {
    var out = new ArrayList<ObjectNode>();
    String prefix = type.apiVersion() + "/" + type.kind() + "|";
    for (var entry : objects.tailMap(prefix).entrySet()) {
      if (!entry.getKey().startsWith(prefix)) {
        break;
      }
      ObjectNode object = entry.getValue();
      if (namespace == null || namespace.equals(namespace(object))) {
        out.add(object.deepCopy());
      }
    }
    return out;
  }

  private static String namespace(ObjectNode object) {
    return object.path("metadata").path("namespace").asString("");
  }

  private static String key(ResourceType type, String namespace, String name) {
    return type.apiVersion()
        + "/"
        + type.kind()
        + "|"
        + (type.namespaced() && namespace != null ? namespace : "")
        + "|"
        + name;
  }
}
