package io.kuik.sim.world;

import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.crd.CustomResources;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.validation.SecretData;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the API server does to a request body before admission sees it: reads it as its type
 * (apiVersion and kind must name it; data must be base64), drops nulls and empty metadata maps as a
 * typed decoder does, merges a Secret's {@code stringData} into {@code data} (stringData wins, and
 * is never stored) and defaults a Secret's {@code type} to Opaque.
 */
final class Decoding {

  private Decoding() {}

  /** The type a body names, or 400 when it names none the server serves. */
  static ResourceType typeOf(JsonNode body) {
    String apiVersion = Json.text(body, "apiVersion");
    String kind = Json.text(body, "kind");
    if (apiVersion == null || apiVersion.isEmpty()) {
      throw ApiException.badRequest("Object 'apiVersion' is missing in the request body");
    }
    if (kind == null || kind.isEmpty()) {
      throw ApiException.badRequest("Object 'Kind' is missing in the request body");
    }
    Optional<ResourceType> type = ResourceType.ofKind(apiVersion, kind);
    return type.orElseThrow(
        () ->
            ApiException.badRequest(
                "no kind \"" + kind + "\" is registered for version \"" + apiVersion + "\""));
  }

  /** A full object (create, update, patched result), decoded and defaulted; a copy. */
  static ObjectNode decode(ResourceType type, ObjectNode body) {
    ObjectNode object = configuration(type, body);
    defaults(type, object);
    return object;
  }

  /** An apply configuration: decoded but not defaulted (defaults apply to the merged result). */
  static ObjectNode configuration(ResourceType type, ObjectNode body) {
    ObjectNode object = body.deepCopy();
    if (CustomResources.isCustom(type)) {
      Json.dropNulls(object.get("metadata")); // ObjectMeta is typed; the rest is the schema's
    } else {
      Json.dropNulls(object);
    }
    omitEmpty(object);
    if (type.equals(ResourceType.SECRET)) {
      mergeStringData(object);
      checkBase64(object);
    }
    return object;
  }

  static void defaults(ResourceType type, ObjectNode object) {
    if (type.equals(ResourceType.SECRET)) {
      String t = Json.text(object, "type");
      if (t == null || t.isEmpty()) {
        object.put("type", "Opaque");
      }
    }
  }

  /** Empty maps and lists that Go's omitempty drops from metadata and a Secret's data. */
  static void omitEmpty(ObjectNode object) {
    JsonNode metadata = object.get("metadata");
    if (metadata instanceof ObjectNode meta) {
      for (String field :
          new String[] {
            "labels", "annotations", "ownerReferences", "finalizers", "managedFields"
          }) {
        JsonNode value = meta.get(field);
        if (value != null && value.isEmpty() && !value.isString()) {
          meta.remove(field);
        }
      }
    }
    JsonNode data = object.get("data");
    if (data != null && data.isObject() && data.isEmpty()) {
      object.remove("data");
    }
  }

  private static void mergeStringData(ObjectNode secret) {
    JsonNode stringData = secret.remove("stringData");
    if (stringData == null || stringData.isEmpty()) {
      return;
    }
    if (!stringData.isObject()) {
      throw cannotHandle("stringData must be a map of strings");
    }
    ObjectNode data = Json.child(secret, "data");
    for (Map.Entry<String, JsonNode> e : stringData.properties()) {
      if (!e.getValue().isString()) {
        throw cannotHandle("stringData values must be strings");
      }
      byte[] bytes = e.getValue().stringValue().getBytes(StandardCharsets.UTF_8);
      data.put(e.getKey(), SecretData.encode(bytes));
    }
  }

  private static void checkBase64(ObjectNode secret) {
    JsonNode data = secret.get("data");
    if (data == null) {
      return;
    }
    if (!data.isObject()) {
      throw cannotHandle("data must be a map of base64 strings");
    }
    for (Map.Entry<String, JsonNode> e : data.properties()) {
      if (!e.getValue().isString()) {
        throw cannotHandle("data values must be base64 strings");
      }
      try {
        SecretData.decode(e.getValue().stringValue());
      } catch (IllegalArgumentException bad) {
        throw cannotHandle(bad.getMessage());
      }
    }
  }

  private static ApiException cannotHandle(String why) {
    return ApiException.badRequest(
        "Secret in version \"v1\" cannot be handled as a Secret: " + why);
  }

  static String name(JsonNode object) {
    return Meta.name(object);
  }
}
