package io.kuik.sim.world.admission;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** Small readers over stored objects, where an absent field reads as empty. */
final class Json {

  private Json() {}

  static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    return value.isString() ? value.asString() : "";
  }

  static List<String> strings(JsonNode node, String field) {
    var out = new ArrayList<String>();
    for (JsonNode item : node.path(field)) {
      if (item.isString()) {
        out.add(item.asString());
      }
    }
    return out;
  }

  static String name(JsonNode object) {
    return text(object.path("metadata"), "name");
  }

  static String namespace(JsonNode object) {
    return text(object.path("metadata"), "namespace");
  }
}
