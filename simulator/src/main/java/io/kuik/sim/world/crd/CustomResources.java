package io.kuik.sim.world.crd;

import io.kuik.sim.world.api.ClusterState;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.validation.FieldErrors;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The kinds the API server serves only through a stored CustomResourceDefinition (kuik's
 * ImageAlternative and ImageMirror), handled as kubernetes/apiextensions-apiserver handles them:
 * served only while a CRD names their group, plural, kind and version ({@code
 * pkg/apiserver/customresource_handler.go}: otherwise the request falls through to 404); their
 * bodies pruned and defaulted by that CRD's structural schema; validated on every create and update
 * by the schema and then its {@code x-kubernetes-validations} rules ({@code
 * pkg/registry/customresource/strategy.go}, {@code Validate} and {@code ValidateUpdate}). The CRD
 * is read again on every request, so a CRD that changes changes what is enforced; objects already
 * stored are not validated again until they are written.
 *
 * <p>Not modelled: ratcheting (an update that leaves an invalid field as it was is still refused
 * here), defaulting on read, list-type and embedded-resource checks, conversion between versions.
 */
public final class CustomResources {

  private static final Set<ResourceType> CUSTOM =
      Set.of(ResourceType.IMAGE_ALTERNATIVE, ResourceType.IMAGE_MIRROR);
  private static final String BLOCKED =
      "<nil>: Invalid value: \"null\": some validation rules were not checked because the object"
          + " was invalid; correct the existing errors to complete validation";

  private final ClusterState state;
  private final ValidationRules rules = new ValidationRules();

  public CustomResources(ClusterState state) {
    this.state = state;
  }

  /** Whether the kind is one that only a CRD makes the API server serve. */
  public static boolean isCustom(ResourceType type) {
    return CUSTOM.contains(type);
  }

  /** Whether the API server serves the type now: built in, or named by a stored CRD. */
  public boolean served(ResourceType type) {
    return !isCustom(type) || version(type).isPresent();
  }

  /** Prunes, drops disallowed nulls and defaults, by the served version's schema. */
  public void coerce(ResourceType type, ObjectNode object) {
    schema(type).ifPresent(schema -> Coercion.coerce(object, schema));
  }

  /** The field errors of a custom resource being created ({@code old} null) or updated. */
  public List<String> validate(ResourceType type, ObjectNode object, ObjectNode old) {
    Optional<Schema> schema = schema(type);
    if (schema.isEmpty()) {
      return List.of();
    }
    SchemaValidation.Result result = SchemaValidation.validate(object, schema.get());
    FieldErrors errors = result.errors;
    if (result.blocking) {
      List<String> all = new java.util.ArrayList<>(errors.list());
      if (hasRules(schema.get().node())) {
        all.add(BLOCKED);
      }
      return all;
    }
    errors.addAll(rules.validate(object, old, schema.get()));
    return errors.list();
  }

  /** The field errors of {@code status} alone, by the schema's {@code status} property. */
  public List<String> validateStatus(ResourceType type, ObjectNode object) {
    Optional<Schema> schema = schema(type);
    JsonNode status = schema.map(s -> s.node().path("properties").path("status")).orElse(null);
    if (status == null || !status.isObject()) {
      return List.of();
    }
    ObjectNode only = object.objectNode();
    only.put("type", "object");
    only.putObject("properties").set("status", status);
    ObjectNode statusOnly = object.objectNode();
    if (object.has("status")) {
      statusOnly.set("status", object.get("status"));
    }
    return SchemaValidation.validate(statusOnly, new Schema(only)).errors.list();
  }

  /**
   * The errors of a CustomResourceDefinition being written: each served version needs a schema, and
   * each rule and messageExpression of it must compile, as {@code
   * pkg/apis/apiextensions/validation/validation.go} checks them (the path named as it names it).
   */
  public List<String> validateDefinition(ObjectNode crd) {
    FieldErrors errors = new FieldErrors();
    JsonNode versions = crd.path("spec").path("versions");
    for (int i = 0; i < versions.size(); i++) {
      String path = "spec.versions[" + i + "].schema.openAPIV3Schema";
      JsonNode schema = versions.get(i).path("schema").path("openAPIV3Schema");
      if (!schema.isObject()) {
        errors.required(path, "schemas are required");
      } else {
        compileRules(schema, path, errors);
      }
    }
    return errors.list();
  }

  private void compileRules(JsonNode schema, String path, FieldErrors errors) {
    JsonNode validations = schema.path("x-kubernetes-validations");
    for (int i = 0; i < validations.size(); i++) {
      JsonNode rule = validations.get(i);
      String at = path + ".x-kubernetes-validations[" + i + "]";
      for (String field : List.of("rule", "messageExpression")) {
        String text = rule.path(field).asString("");
        String error = text.isEmpty() ? null : rules.compileError(text);
        if (error != null) {
          errors.invalidRendered(
              at + "." + field, Rendering.quoted(text), "compilation failed: " + error);
        }
      }
    }
    schema
        .path("properties")
        .properties()
        .forEach(p -> compileRules(p.getValue(), path + ".properties[" + p.getKey() + "]", errors));
    if (schema.path("items").isObject()) {
      compileRules(schema.path("items"), path + ".items", errors);
    }
    if (schema.path("additionalProperties").isObject()) {
      compileRules(schema.path("additionalProperties"), path + ".additionalProperties", errors);
    }
  }

  private static boolean hasRules(JsonNode schema) {
    if (!schema.path("x-kubernetes-validations").isEmpty()) {
      return true;
    }
    for (var p : schema.path("properties").properties()) {
      if (hasRules(p.getValue())) {
        return true;
      }
    }
    return schema.path("items").isObject() && hasRules(schema.path("items"))
        || schema.path("additionalProperties").isObject()
            && hasRules(schema.path("additionalProperties"));
  }

  private Optional<Schema> schema(ResourceType type) {
    return version(type)
        .map(v -> v.path("schema").path("openAPIV3Schema"))
        .filter(JsonNode::isObject)
        .map(Schema::new);
  }

  /** The served version of the CRD that names the type, if one is stored. */
  private Optional<JsonNode> version(ResourceType type) {
    if (!isCustom(type)) {
      return Optional.empty();
    }
    Optional<ObjectNode> crd =
        state.get(
            ResourceType.CUSTOM_RESOURCE_DEFINITION, null, type.resource() + "." + type.group());
    if (crd.isEmpty()) {
      return Optional.empty();
    }
    JsonNode spec = crd.get().path("spec");
    if (!type.group().equals(spec.path("group").asString(""))
        || !type.kind().equals(spec.path("names").path("kind").asString(""))) {
      return Optional.empty();
    }
    for (JsonNode version : spec.path("versions")) {
      if (type.version().equals(version.path("name").asString(""))
          && version.path("served").asBoolean(false)) {
        return Optional.of(version);
      }
    }
    return Optional.empty();
  }
}
