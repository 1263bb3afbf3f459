package io.kuik.sim.world.object;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Read and write access to an object's {@code metadata}, by the names Kubernetes uses. */
public final class Meta {

  private Meta() {}

  public static ObjectNode metadata(ObjectNode object) {
    return Json.child(object, "metadata");
  }

  public static String name(JsonNode object) {
    return Json.text(object, "metadata", "name");
  }

  public static String namespace(JsonNode object) {
    return Json.text(object, "metadata", "namespace");
  }

  public static String uid(JsonNode object) {
    return Json.text(object, "metadata", "uid");
  }

  public static String resourceVersion(JsonNode object) {
    return Json.text(object, "metadata", "resourceVersion");
  }

  public static String deletionTimestamp(JsonNode object) {
    return Json.text(object, "metadata", "deletionTimestamp");
  }

  public static boolean deleting(JsonNode object) {
    return deletionTimestamp(object) != null;
  }

  /** The labels as a sorted map (empty when none). */
  public static Map<String, String> labels(JsonNode object) {
    return stringMap(object.path("metadata").path("labels"));
  }

  public static Map<String, String> annotations(JsonNode object) {
    return stringMap(object.path("metadata").path("annotations"));
  }

  public static List<String> finalizers(JsonNode object) {
    List<String> out = new ArrayList<>();
    for (JsonNode f : object.path("metadata").path("finalizers")) {
      out.add(f.asString());
    }
    return out;
  }

  public static void setFinalizers(ObjectNode object, List<String> finalizers) {
    if (finalizers.isEmpty()) {
      metadata(object).remove("finalizers");
    } else {
      ArrayNode array = metadata(object).putArray("finalizers");
      finalizers.forEach(array::add);
    }
  }

  /** The ownerReferences entries (copies), in order. */
  public static List<ObjectNode> ownerReferences(JsonNode object) {
    List<ObjectNode> out = new ArrayList<>();
    for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
      if (ref instanceof ObjectNode o) {
        out.add(o.deepCopy());
      }
    }
    return out;
  }

  /** "namespace/name" for namespaced objects, "name" otherwise. */
  public static String key(JsonNode object) {
    String ns = namespace(object);
    return ns == null ? name(object) : ns + "/" + name(object);
  }

  private static Map<String, String> stringMap(JsonNode node) {
    Map<String, String> out = new TreeMap<>();
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        out.put(e.getKey(), e.getValue().asString());
      }
    }
    return out;
  }
}
