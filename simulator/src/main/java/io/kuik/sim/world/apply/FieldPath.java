package io.kuik.sim.world.apply;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The path of one owned field, in managedFields' own segment notation: {@code f:<field>} for an
 * object field, {@code k:{"uid":"<uid>"}} for an element of a list keyed by uid (only {@code
 * metadata.ownerReferences}). Rendered for people as {@code .metadata.labels.app} or {@code
 * .metadata.ownerReferences[uid="..."]}.
 */
public record FieldPath(List<String> segments) implements Comparable<FieldPath> {

  public FieldPath {
    segments = List.copyOf(segments);
  }

  public static FieldPath of(String... fields) {
    List<String> s = new ArrayList<>();
    for (String f : fields) {
      s.add("f:" + f);
    }
    return new FieldPath(s);
  }

  public FieldPath field(String name) {
    return append("f:" + name);
  }

  public FieldPath keyedByUid(String uid) {
    return append("k:{\"uid\":\"" + uid + "\"}");
  }

  FieldPath append(String segment) {
    List<String> s = new ArrayList<>(segments);
    s.add(segment);
    return new FieldPath(s);
  }

  /** True when one path contains the other (or they are equal): owning one touches the other. */
  public boolean overlaps(FieldPath other) {
    int n = Math.min(segments.size(), other.segments.size());
    return segments.subList(0, n).equals(other.segments.subList(0, n));
  }

  /** The value at this path, or null when absent. */
  public JsonNode valueIn(JsonNode root) {
    JsonNode node = root;
    for (String segment : segments) {
      if (node == null) {
        return null;
      }
      node = step(node, segment);
    }
    return node;
  }

  /**
   * Removes the field at this path and then every parent object or list it leaves empty (the API
   * server omits empty maps and lists).
   */
  public void removeFrom(ObjectNode root) {
    List<JsonNode> chain = new ArrayList<>();
    JsonNode node = root;
    for (String segment : segments) {
      chain.add(node);
      node = node == null ? null : step(node, segment);
    }
    if (node == null) {
      return;
    }
    for (int i = segments.size() - 1; i >= 0; i--) {
      JsonNode parent = chain.get(i);
      String segment = segments.get(i);
      if (parent instanceof ObjectNode object && segment.startsWith("f:")) {
        object.remove(segment.substring(2));
      } else if (parent instanceof ArrayNode array && segment.startsWith("k:")) {
        for (int j = 0; j < array.size(); j++) {
          if (uidSegment(array.get(j)).equals(segment)) {
            array.remove(j);
            break;
          }
        }
      }
      if (i == 0 || !parent.isEmpty()) {
        return;
      }
    }
  }

  static String uidSegment(JsonNode element) {
    return "k:{\"uid\":\"" + element.path("uid").asString("") + "\"}";
  }

  private static JsonNode step(JsonNode node, String segment) {
    if (segment.startsWith("f:")) {
      return node.isObject() ? node.get(segment.substring(2)) : null;
    }
    if (node.isArray()) {
      for (JsonNode element : node) {
        if (uidSegment(element).equals(segment)) {
          return element;
        }
      }
    }
    return null;
  }

  @Override
  public int compareTo(FieldPath other) {
    int n = Math.min(segments.size(), other.segments.size());
    for (int i = 0; i < n; i++) {
      int c = segments.get(i).compareTo(other.segments.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(segments.size(), other.segments.size());
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    for (String s : segments) {
      if (s.startsWith("f:")) {
        out.append('.').append(s.substring(2));
      } else {
        String uid = s.substring("k:{\"uid\":\"".length(), s.length() - 2);
        out.append("[uid=\"").append(uid).append("\"]");
      }
    }
    return out.toString();
  }
}
