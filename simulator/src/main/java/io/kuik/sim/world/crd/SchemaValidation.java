package io.kuik.sim.world.crd;

import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.validation.FieldErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import tools.jackson.databind.JsonNode;

/**
 * A custom resource checked against its structural schema, as kubernetes/apiextensions-apiserver
 * does through kube-openapi ({@code pkg/apiserver/validation/validation.go}, {@code
 * ValidateCustomResource} and {@code kubeOpenAPIResultToFieldErrors}, which words each error):
 * types, {@code nullable}, {@code enum}, {@code required}, {@code maxLength}/{@code minLength} (in
 * characters), {@code pattern}, {@code maxItems}/{@code minItems}, for declared properties, {@code
 * additionalProperties} and array items. Fields the schema does not know were pruned before.
 *
 * <p>Errors of the kinds {@code hasBlockingErr} lists (unsupported value, required, too long, too
 * many, wrong type) are <em>blocking</em>: the CEL rules are then not run. Patterns are Java
 * regular expressions here (the API server uses Go's RE2; the chart's CRDs have none).
 */
final class SchemaValidation {

  /** The errors found and whether one of them stops the CEL rules from running. */
  static final class Result {
    final FieldErrors errors = new FieldErrors();
    boolean blocking;
  }

  private SchemaValidation() {}

  static Result validate(JsonNode object, Schema schema) {
    Result result = new Result();
    validate(object, schema, "", result, true);
    return result;
  }

  private static void validate(
      JsonNode value, Schema schema, String path, Result out, boolean root) {
    if (schema == null) {
      return;
    }
    String type = schema.type();
    if (value.isNull()) {
      if (!schema.nullable() && !type.isEmpty()) {
        typeInvalid(path, value, type, out);
      }
      return;
    }
    if (!type.isEmpty() && !typeName(value).equals(type) && !integerAsNumber(type, value)) {
      typeInvalid(path, value, type, out);
      return;
    }
    JsonNode allowed = schema.enumValues();
    if (allowed.isArray() && !allowed.isEmpty() && !contains(allowed, value)) {
      List<String> values = new ArrayList<>();
      allowed.forEach(v -> values.add(v.isString() ? v.asString() : Json.write(v)));
      out.errors.notSupported(
          path, value.isString() ? value.asString() : Json.write(value), values);
      out.blocking = true;
    }
    if (value.isString()) {
      string(value.asString(), schema, path, out);
    } else if (value.isArray()) {
      array(value, schema, path, out);
    } else if (value.isObject()) {
      object(value, schema, path, out, root);
    }
  }

  private static void string(String text, Schema schema, String path, Result out) {
    int length = text.codePointCount(0, text.length());
    JsonNode max = schema.node().path("maxLength");
    if (max.isNumber() && length > max.asLong()) {
      out.errors.tooLong(path, max.asLong());
      out.blocking = true;
    }
    JsonNode min = schema.node().path("minLength");
    if (min.isNumber() && length < min.asLong()) {
      out.errors.invalidRendered(
          path,
          Rendering.value(Json.MAPPER.getNodeFactory().stringNode(text)),
          path + " in body should be at least " + min.asLong() + " chars long");
    }
    String pattern = schema.node().path("pattern").asString("");
    if (!pattern.isEmpty() && !matches(pattern, text)) {
      out.errors.invalidRendered(
          path,
          Rendering.value(Json.MAPPER.getNodeFactory().stringNode(text)),
          path + " in body should match '" + pattern + "'");
    }
  }

  private static void array(JsonNode array, Schema schema, String path, Result out) {
    JsonNode max = schema.node().path("maxItems");
    if (max.isNumber() && array.size() > max.asLong()) {
      out.errors.tooMany(path, array.size(), max.asInt());
      out.blocking = true;
    }
    JsonNode min = schema.node().path("minItems");
    if (min.isNumber() && array.size() < min.asLong()) {
      out.errors.invalidRendered(
          path,
          Integer.toString(array.size()),
          path + " in body should have at least " + min.asLong() + " items");
    }
    for (int i = 0; i < array.size(); i++) {
      validate(array.get(i), schema.items(), path + "[" + i + "]", out, false);
    }
  }

  private static void object(
      JsonNode object, Schema schema, String path, Result out, boolean root) {
    for (String name : schema.required()) {
      if (!object.has(name)) {
        out.errors.required(child(path, name), "");
        out.blocking = true;
      }
    }
    for (Map.Entry<String, JsonNode> field : object.properties()) {
      if (root
          && (field.getKey().equals("metadata")
              || field.getKey().equals("apiVersion")
              || field.getKey().equals("kind"))) {
        continue; // checked as ObjectMeta and TypeMeta, not by the schema
      }
      String childPath =
          schema.declares(field.getKey())
              ? child(path, field.getKey())
              : path + "[" + field.getKey() + "]";
      validate(field.getValue(), schema.field(field.getKey()), childPath, out, false);
    }
  }

  private static void typeInvalid(String path, JsonNode value, String type, Result out) {
    out.errors.invalidRendered(
        path,
        Rendering.value(value),
        path + " in body must be of type " + type + ": \"" + typeName(value) + "\"");
    out.blocking = true;
  }

  static String child(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  /** The OpenAPI type of a JSON value. */
  static String typeName(JsonNode value) {
    if (value.isObject()) {
      return "object";
    }
    if (value.isArray()) {
      return "array";
    }
    if (value.isString()) {
      return "string";
    }
    if (value.isBoolean()) {
      return "boolean";
    }
    if (value.isIntegralNumber()) {
      return "integer";
    }
    if (value.isNumber()) {
      return "number";
    }
    return "null";
  }

  private static boolean integerAsNumber(String type, JsonNode value) {
    return type.equals("number") && value.isIntegralNumber();
  }

  private static boolean contains(JsonNode allowed, JsonNode value) {
    for (JsonNode candidate : allowed) {
      if (candidate.equals(value)) {
        return true;
      }
    }
    return false;
  }

  private static boolean matches(String pattern, String text) {
    try {
      return Pattern.compile(pattern).matcher(text).find();
    } catch (PatternSyntaxException e) {
      return true; // the API server refuses such a CRD; nothing to check against
    }
  }
}
