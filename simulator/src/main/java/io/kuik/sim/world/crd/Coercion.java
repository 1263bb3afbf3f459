package io.kuik.sim.world.crd;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the API server does to a custom resource's body before admission, read from
 * kubernetes/apiextensions-apiserver {@code pkg/apiserver/schema}: unknown fields are pruned
 * ({@code pruning/algorithm.go}, {@code Prune}: a field the schema does not declare goes, unless
 * {@code x-kubernetes-preserve-unknown-fields}; at the root apiVersion, kind and metadata stay), a
 * null where the schema allows none and has no default goes ({@code defaulting/prunenulls.go},
 * {@code PruneNonNullableNullsWithoutDefaults}), and defaults fill absent fields and those nulls
 * ({@code defaulting/algorithm.go}, {@code Default}).
 *
 * <p>Unknown fields are pruned silently, as the API does by default ({@code fieldValidation=Warn}
 * sends a warning header, which the simulator does not model); kubectl's {@code --validate=strict}
 * would refuse them with 400 instead.
 */
final class Coercion {

  private static final Set<String> ROOT_FIELDS = Set.of("apiVersion", "kind", "metadata");

  private Coercion() {}

  static void coerce(ObjectNode object, Schema schema) {
    prune(object, schema, true);
    pruneNulls(object, schema);
    applyDefaults(object, schema);
  }

  private static void prune(JsonNode value, Schema schema, boolean root) {
    if (schema == null) {
      return;
    }
    if (value instanceof ObjectNode object) {
      List<String> unknown = new ArrayList<>();
      for (Map.Entry<String, JsonNode> field : object.properties()) {
        if (root && ROOT_FIELDS.contains(field.getKey())) {
          continue;
        }
        Schema child = schema.field(field.getKey());
        if (child == null && !schema.preservesUnknownFields()) {
          unknown.add(field.getKey());
        } else {
          prune(field.getValue(), child, false);
        }
      }
      unknown.forEach(object::remove);
    } else if (value instanceof ArrayNode array) {
      for (JsonNode item : array) {
        prune(item, schema.items(), false);
      }
    }
  }

  private static void pruneNulls(JsonNode value, Schema schema) {
    if (value instanceof ObjectNode object) {
      List<String> dropped = new ArrayList<>();
      for (Map.Entry<String, JsonNode> field : object.properties()) {
        Schema child = schema == null ? null : schema.field(field.getKey());
        if (field.getValue().isNull()
            && child != null
            && !child.nullable()
            && child.defaultValue() == null) {
          dropped.add(field.getKey());
        } else {
          pruneNulls(field.getValue(), child);
        }
      }
      dropped.forEach(object::remove);
    } else if (value instanceof ArrayNode array) {
      for (JsonNode item : array) {
        pruneNulls(item, schema == null ? null : schema.items());
      }
    }
  }

  private static void applyDefaults(JsonNode value, Schema schema) {
    if (schema == null) {
      return;
    }
    if (value instanceof ObjectNode object) {
      for (Map.Entry<String, JsonNode> property : schema.node().path("properties").properties()) {
        Schema child = new Schema(property.getValue());
        JsonNode current = object.get(property.getKey());
        if (child.defaultValue() != null
            && (current == null || current.isNull() && !child.nullable())) {
          object.set(property.getKey(), child.defaultValue().deepCopy());
        }
      }
      for (Map.Entry<String, JsonNode> field : object.properties()) {
        applyDefaults(field.getValue(), schema.field(field.getKey()));
      }
    } else if (value instanceof ArrayNode array) {
      Schema items = schema.items();
      for (int i = 0; i < array.size(); i++) {
        if (items != null
            && array.get(i).isNull()
            && !items.nullable()
            && items.defaultValue() != null) {
          array.set(i, items.defaultValue().deepCopy());
        }
        applyDefaults(array.get(i), items);
      }
    }
  }
}
