package io.kuik.sim.world.crd;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * One node of a CustomResourceDefinition's structural schema ({@code openAPIV3Schema}), with the
 * keywords the API server applies to custom resources: {@code type}, {@code properties}, {@code
 * items}, {@code additionalProperties}, {@code required}, {@code enum}, {@code pattern}, lengths
 * and item counts, {@code nullable}, {@code default}, {@code x-kubernetes-preserve-unknown-fields},
 * {@code x-kubernetes-list-type} and {@code x-kubernetes-validations}.
 */
record Schema(JsonNode node) {

  Schema {
    Objects.requireNonNull(node, "node");
  }

  String type() {
    return node.path("type").asString("");
  }

  boolean nullable() {
    return node.path("nullable").asBoolean(false);
  }

  boolean preservesUnknownFields() {
    return node.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)
        || node.path("additionalProperties").isBoolean()
            && node.path("additionalProperties").asBoolean();
  }

  /** The schema of a declared property, or of additionalProperties, or null: unknown. */
  Schema field(String name) {
    JsonNode property = node.path("properties").path(name);
    if (property.isObject()) {
      return new Schema(property);
    }
    JsonNode additional = node.path("additionalProperties");
    return additional.isObject() ? new Schema(additional) : null;
  }

  boolean declares(String name) {
    return node.path("properties").has(name);
  }

  Schema items() {
    JsonNode items = node.path("items");
    return items.isObject() ? new Schema(items) : null;
  }

  List<String> required() {
    List<String> names = new ArrayList<>();
    node.path("required").forEach(n -> names.add(n.asString()));
    return names;
  }

  JsonNode enumValues() {
    return node.path("enum");
  }

  JsonNode defaultValue() {
    return node.get("default");
  }

  JsonNode validations() {
    return node.path("x-kubernetes-validations");
  }

  /** {@code map} lists correlate old and new items by their keys; others do not. */
  boolean isMapList() {
    return "map".equals(node.path("x-kubernetes-list-type").asString(""));
  }

  List<String> listMapKeys() {
    List<String> keys = new ArrayList<>();
    node.path("x-kubernetes-list-map-keys").forEach(n -> keys.add(n.asString()));
    return keys;
  }
}
