package io.kuik.sim.world.apply;

import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON merge patch (RFC 7386): an object patch merges key by key, {@code null} deletes the key, any
 * other value (lists included) replaces the target's value whole.
 */
public final class MergePatch {

  private MergePatch() {}

  /** The patched document; {@code target} is not changed. */
  public static JsonNode apply(JsonNode target, JsonNode patch) {
    if (!patch.isObject()) {
      return patch.deepCopy();
    }
    ObjectNode result =
        target != null && target.isObject()
            ? ((ObjectNode) target).deepCopy()
            : JsonNodeFactory.instance.objectNode();
    for (Map.Entry<String, JsonNode> e : patch.properties()) {
      if (e.getValue().isNull()) {
        result.remove(e.getKey());
      } else {
        result.set(e.getKey(), apply(result.get(e.getKey()), e.getValue()));
      }
    }
    return result;
  }
}
