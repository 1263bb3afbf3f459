package io.kuik.sim.world.object;

import java.util.Iterator;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** JSON and YAML helpers over Jackson 3 trees, the shape every stored object has. */
public final class Json {

  public static final JsonMapper MAPPER = JsonMapper.builder().build();
  private static final YAMLMapper YAML = YAMLMapper.builder().build();

  private Json() {}

  public static ObjectNode object() {
    return JsonNodeFactory.instance.objectNode();
  }

  public static ObjectNode parse(String json) {
    return (ObjectNode) MAPPER.readTree(json);
  }

  /** One YAML document (a manifest) as a JSON object. */
  public static ObjectNode yaml(String yaml) {
    return (ObjectNode) YAML.readTree(yaml);
  }

  public static String write(JsonNode node) {
    return MAPPER.writeValueAsString(node);
  }

  /** The object at {@code field} of {@code parent}, created empty when missing or not an object. */
  public static ObjectNode child(ObjectNode parent, String field) {
    JsonNode node = parent.get(field);
    if (node instanceof ObjectNode object) {
      return object;
    }
    ObjectNode created = object();
    parent.set(field, created);
    return created;
  }

  /** Text at a dotted path of plain object fields, or null. */
  public static String text(JsonNode root, String... path) {
    JsonNode node = root;
    for (String field : path) {
      if (node == null || !node.isObject()) {
        return null;
      }
      node = node.get(field);
    }
    return node != null && node.isString() ? node.stringValue() : null;
  }

  /** Removes JSON nulls at every depth: a typed API server reads them as absent fields. */
  public static void dropNulls(JsonNode node) {
    if (node instanceof ObjectNode object) {
      Iterator<Map.Entry<String, JsonNode>> it = object.properties().iterator();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        if (e.getValue().isNull()) {
          it.remove();
        } else {
          dropNulls(e.getValue());
        }
      }
    } else if (node != null && node.isArray()) {
      for (JsonNode item : node) {
        dropNulls(item);
      }
    }
  }
}
