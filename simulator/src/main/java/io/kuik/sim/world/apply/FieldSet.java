package io.kuik.sim.world.apply;

import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Kinds;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A set of owned fields at leaf granularity: every scalar, every list (lists are atomic), every
 * empty object, and each {@code metadata.ownerReferences} element keyed by its uid. Fields the
 * server owns ({@code apiVersion}, {@code kind}, name, namespace, uid, resourceVersion, generation,
 * timestamps, managedFields, and status behind a subresource) are never in a set.
 */
public final class FieldSet {

  private static final Set<String> SERVER_METADATA =
      Set.of(
          "name",
          "namespace",
          "uid",
          "resourceVersion",
          "generation",
          "creationTimestamp",
          "deletionTimestamp",
          "deletionGracePeriodSeconds",
          "managedFields",
          "selfLink",
          "generateName");

  private final TreeSet<FieldPath> paths;

  public FieldSet(Collection<FieldPath> paths) {
    this.paths = new TreeSet<>(paths);
  }

  public static FieldSet empty() {
    return new FieldSet(List.of());
  }

  /** The leaves of {@code object} that a manager setting it would own. */
  public static FieldSet of(ResourceType type, ObjectNode object) {
    List<FieldPath> out = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : object.properties()) {
      String field = e.getKey();
      if (field.equals("apiVersion")
          || field.equals("kind")
          || field.equals("status") && Kinds.hasStatusSubresource(type)) {
        continue;
      }
      if (field.equals("metadata") && e.getValue().isObject()) {
        metadata(e.getValue(), out);
      } else {
        walk(e.getValue(), FieldPath.of(field), out);
      }
    }
    return new FieldSet(out);
  }

  /**
   * The leaves of {@code object.status} alone: what a manager applying to the status subresource
   * owns (the status strategy resets every other field, status_strategy.go GetResetFields).
   */
  public static FieldSet ofStatus(ObjectNode object) {
    List<FieldPath> out = new ArrayList<>();
    JsonNode status = object.get("status");
    if (status != null) {
      walk(status, FieldPath.of("status"), out);
    }
    return new FieldSet(out);
  }

  /** True for the fields the server maintains, which no manager owns or may set by apply. */
  static boolean serverMetadata(String field) {
    return SERVER_METADATA.contains(field);
  }

  private static void metadata(JsonNode metadata, List<FieldPath> out) {
    FieldPath base = FieldPath.of("metadata");
    for (Map.Entry<String, JsonNode> e : metadata.properties()) {
      String field = e.getKey();
      if (SERVER_METADATA.contains(field)) {
        continue;
      }
      if (field.equals("ownerReferences") && e.getValue().isArray()) {
        for (JsonNode ref : e.getValue()) {
          out.add(base.field(field).keyedByUid(ref.path("uid").asString("")));
        }
      } else {
        walk(e.getValue(), base.field(field), out);
      }
    }
  }

  private static void walk(JsonNode node, FieldPath path, List<FieldPath> out) {
    if (node.isObject() && !node.isEmpty()) {
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        walk(e.getValue(), path.field(e.getKey()), out);
      }
    } else {
      out.add(path);
    }
  }

  public SortedSet<FieldPath> paths() {
    return Collections.unmodifiableSortedSet(paths);
  }

  public boolean isEmpty() {
    return paths.isEmpty();
  }

  public boolean contains(FieldPath path) {
    return paths.contains(path);
  }

  /** Paths of this set that overlap any of {@code others}. */
  public List<FieldPath> overlapping(Collection<FieldPath> others) {
    List<FieldPath> out = new ArrayList<>();
    for (FieldPath p : paths) {
      for (FieldPath o : others) {
        if (p.overlaps(o)) {
          out.add(p);
          break;
        }
      }
    }
    return out;
  }

  public FieldSet union(Collection<FieldPath> more) {
    TreeSet<FieldPath> out = new TreeSet<>(paths);
    out.addAll(more);
    return new FieldSet(out);
  }

  public FieldSet minus(Collection<FieldPath> less) {
    TreeSet<FieldPath> out = new TreeSet<>(paths);
    out.removeAll(less);
    return new FieldSet(out);
  }

  /** The fieldsV1 trie: {@code {"f:data":{"f:.dockerconfigjson":{}}}}; "." marks an inner leaf. */
  public ObjectNode toFieldsV1() {
    ObjectNode root = Json.object();
    for (FieldPath p : paths) {
      ObjectNode node = root;
      for (String segment : p.segments()) {
        node = Json.child(node, segment);
      }
    }
    // A leaf that later gained children (a prefix of another path) is marked with ".".
    for (FieldPath p : paths) {
      ObjectNode node = root;
      for (String segment : p.segments()) {
        node = (ObjectNode) node.get(segment);
      }
      if (node.size() > 0 && !node.has(".")) {
        node.putObject(".");
      }
    }
    return root;
  }

  public static FieldSet fromFieldsV1(JsonNode fieldsV1) {
    List<FieldPath> out = new ArrayList<>();
    read(fieldsV1, new FieldPath(List.of()), out);
    return new FieldSet(out);
  }

  private static void read(JsonNode node, FieldPath path, List<FieldPath> out) {
    if (node.isEmpty()) {
      if (!path.segments().isEmpty()) {
        out.add(path);
      }
      return;
    }
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      if (e.getKey().equals(".")) {
        out.add(path);
      } else {
        read(e.getValue(), path.append(e.getKey()), out);
      }
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldSet other && other.paths.equals(paths);
  }

  @Override
  public int hashCode() {
    return paths.hashCode();
  }

  @Override
  public String toString() {
    return paths.toString();
  }
}
