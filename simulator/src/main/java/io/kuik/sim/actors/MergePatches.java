package io.kuik.sim.actors;

import io.kuik.sim.world.object.Json;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The JSON merge patch (RFC 7386) that turns one document into another, as kubectl computes it. */
final class MergePatches {

  private MergePatches() {}

  /** A patch holding only what differs: changed values, and null for every removed key. */
  static ObjectNode diff(ObjectNode before, ObjectNode after) {
    ObjectNode patch = Json.object();
    for (Map.Entry<String, JsonNode> field : before.properties()) {
      if (!after.has(field.getKey())) {
        patch.putNull(field.getKey());
      }
    }
    for (Map.Entry<String, JsonNode> field : after.properties()) {
      JsonNode was = before.get(field.getKey());
      JsonNode now = field.getValue();
      if (was == null || !was.equals(now)) {
        patch.set(
            field.getKey(),
            was instanceof ObjectNode a && now instanceof ObjectNode b
                ? diff(a, b)
                : now.deepCopy());
      }
    }
    return patch;
  }
}
