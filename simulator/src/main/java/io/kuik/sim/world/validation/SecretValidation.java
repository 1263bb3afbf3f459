package io.kuik.sim.world.validation;

import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The API server's Secret rules (https://kubernetes.io/docs/concepts/configuration/secret/), run on
 * the object as it will be stored: {@code stringData} is already merged into {@code data} and
 * {@code type} defaulted. Messages name keys, never values: a malformed {@code .dockerconfigjson}
 * is reported as {@code "<secret contents redacted>"}.
 */
public final class SecretValidation {

  /** 1 MiB of decoded data, summed over every key. */
  public static final int MAX_SECRET_SIZE = 1024 * 1024;

  /**
   * Go's encoding/json refuses a document nested deeper than 10000 levels ("exceeded max depth",
   * maxNestingDepth in encoding/json/scanner.go), and nothing shallower for its depth.
   */
  static final int GO_MAX_NESTING_DEPTH = 10_000;

  private static final JsonMapper STRICT =
      JsonMapper.builder(
              tools.jackson.core.json.JsonFactory.builder()
                  .streamReadConstraints(
                      tools.jackson.core.StreamReadConstraints.builder()
                          .maxNestingDepth(GO_MAX_NESTING_DEPTH)
                          .build())
                  .build())
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private SecretValidation() {}

  public static FieldErrors validate(ObjectNode secret) {
    FieldErrors errors = new FieldErrors();
    Map<String, byte[]> data = data(secret);
    long total = 0;
    for (Map.Entry<String, byte[]> e : data.entrySet()) {
      String key = e.getKey();
      Names.configKey(key).forEach(m -> errors.invalid("data[" + key + "]", key, m));
      total += e.getValue().length;
    }
    if (total > MAX_SECRET_SIZE) {
      errors.tooLong("data", MAX_SECRET_SIZE);
    }
    String type = Json.text(secret, "type");
    switch (type == null ? "" : type) {
      case "kubernetes.io/service-account-token":
        String sa = Meta.annotations(secret).get("kubernetes.io/service-account.name");
        if (sa == null || sa.isEmpty()) {
          errors.required("metadata.annotations[kubernetes.io/service-account.name]", "");
        }
        break;
      case "kubernetes.io/dockercfg":
        jsonKey(data, ".dockercfg", errors);
        break;
      case "kubernetes.io/dockerconfigjson":
        jsonKey(data, ".dockerconfigjson", errors);
        break;
      case "kubernetes.io/basic-auth":
        if (!data.containsKey("username") && !data.containsKey("password")) {
          errors.required("data[username]", "");
          errors.required("data[password]", "");
        }
        break;
      case "kubernetes.io/ssh-auth":
        byte[] key = data.get("ssh-privatekey");
        if (key == null || key.length == 0) {
          errors.required("data[ssh-privatekey]", "");
        }
        break;
      case "kubernetes.io/tls":
        if (!data.containsKey("tls.crt")) {
          errors.required("data[tls.crt]", "");
        }
        if (!data.containsKey("tls.key")) {
          errors.required("data[tls.key]", "");
        }
        break;
      default:
        break;
    }
    return errors;
  }

  public static FieldErrors validateUpdate(ObjectNode secret, ObjectNode old) {
    FieldErrors errors = new FieldErrors();
    String type = Json.text(secret, "type");
    if (type != null && !type.equals(Json.text(old, "type"))) {
      errors.immutable("type", type);
    }
    if (old.path("immutable").asBoolean(false)) {
      if (!secret.path("immutable").asBoolean(false)) {
        errors.forbidden("immutable", "field is immutable when `immutable` is set");
      }
      if (!old.path("data").equals(secret.path("data"))) {
        errors.forbidden("data", "field is immutable when `immutable` is set");
      }
    }
    errors.addAll(validate(secret));
    return errors;
  }

  /** The decoded data by key; the decoding stage already refused malformed base64. */
  static Map<String, byte[]> data(ObjectNode secret) {
    Map<String, byte[]> out = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : secret.path("data").properties()) {
      out.put(e.getKey(), SecretData.decode(e.getValue().asString()));
    }
    return out;
  }

  // The API server unmarshals the value into a map[string]interface{}: an object (or null)
  // passes, any other JSON value or a syntax error is refused.
  private static void jsonKey(Map<String, byte[]> data, String key, FieldErrors errors) {
    byte[] value = data.get(key);
    if (value == null) {
      errors.required("data[" + key + "]", "");
      return;
    }
    String why = jsonObjectProblem(value);
    if (why != null) {
      errors.invalid("data[" + key + "]", "<secret contents redacted>", why);
    }
  }

  static String jsonObjectProblem(byte[] value) {
    if (new String(value, java.nio.charset.StandardCharsets.UTF_8).isBlank()) {
      return "unexpected end of JSON input";
    }
    JsonNode parsed;
    try {
      parsed = STRICT.readTree(value);
    } catch (tools.jackson.core.exc.StreamConstraintsException tooDeep) {
      return "exceeded max depth";
    } catch (JacksonException e) {
      long offset = e.getLocation() == null ? -1 : e.getLocation().getByteOffset();
      return offset < 0 ? "invalid JSON" : "invalid JSON at offset " + offset;
    }
    if (parsed == null || parsed.isObject() || parsed.isNull() || parsed.isMissingNode()) {
      return null;
    }
    String what =
        parsed.isArray()
            ? "array"
            : parsed.isString() ? "string" : parsed.isBoolean() ? "bool" : "number";
    return "json: cannot unmarshal " + what + " into Go value of type map[string]interface {}";
  }
}
