package io.kuik.model;

import io.kuik.model.crd.ImageAlternative;
import io.kuik.model.crd.ImageMirror;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads a routing resource from the JSON the API server handed over, whatever its shape. An API
 * server that does not enforce the CRD's schema (a schema-less install, a CRD version skew) stores
 * anything under {@code spec}: a string where a list belongs, an object where a string belongs.
 * Read into the typed classes, such an object would throw in the informer and stop it, so that no
 * other resource is served; read here, it becomes {@link Validated.Invalid}, its problem naming the
 * field, and the others carry on.
 *
 * <p>{@code metadata} is always well formed: the API server validates it for every object, schema
 * or not.
 */
public final class RoutingResourceJson {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** Values quoted in a problem are cut here: a resource may hold a megabyte in one field. */
  private static final int QUOTED_MAX = 64;

  private RoutingResourceJson() {}

  /** The resource validated as {@link RoutingResources} does, or the field that cannot be read. */
  public static Validated validate(RoutingKind kind, JsonNode object) {
    Objects.requireNonNull(kind, "kind");
    try {
      JsonNode withoutStatus = withoutStatus(object); // the syncer's own output, never its input
      return kind == RoutingKind.IMAGE_ALTERNATIVE
          ? RoutingResources.from(JSON.treeToValue(withoutStatus, ImageAlternative.class))
          : RoutingResources.from(JSON.treeToValue(withoutStatus, ImageMirror.class));
    } catch (RuntimeException unreadable) { // any shape at all must end here, never in the informer
      return new Validated.Invalid(
          new ResourceId(kind, name(object)),
          List.of(problem(object, unreadable)),
          generation(object));
    }
  }

  private static JsonNode withoutStatus(JsonNode object) {
    if (object instanceof ObjectNode node && node.has("status")) {
      ObjectNode copy = node.deepCopy();
      copy.remove("status");
      return copy;
    }
    return object;
  }

  private static long generation(JsonNode object) {
    JsonNode generation = object == null ? null : object.path("metadata").path("generation");
    return generation != null && generation.isIntegralNumber()
        ? Math.max(0, generation.asLong())
        : 0;
  }

  private static String name(JsonNode object) {
    JsonNode name = object == null ? null : object.path("metadata").path("name");
    return name != null && name.isString() ? name.asString() : "";
  }

  private static Problem problem(JsonNode object, RuntimeException unreadable) {
    if (!(unreadable instanceof JacksonException jackson) || jackson.getPath().isEmpty()) {
      return new Problem(
          "spec", "cannot be read (" + unreadable.getClass().getSimpleName() + "): " + fix());
    }
    StringBuilder field = new StringBuilder();
    JsonNode value = object;
    for (JacksonException.Reference step : jackson.getPath()) {
      if (step.getPropertyName() != null) {
        field.append(field.length() == 0 ? "" : ".").append(step.getPropertyName());
        value = value == null ? null : value.get(step.getPropertyName());
      } else if (step.getIndex() >= 0) {
        field.append('[').append(step.getIndex()).append(']');
        value = value == null ? null : value.get(step.getIndex());
      }
    }
    String expected =
        jackson instanceof MismatchedInputException mismatch
            ? expected(mismatch.getTargetType())
            : "another shape";
    return new Problem(
        field.toString(),
        "is " + describe(value) + " where the CRD expects " + expected + ": " + fix());
  }

  private static String fix() {
    return "correct the resource; an API server that enforces kuik's CRD schema refuses such"
        + " objects";
  }

  private static String expected(Class<?> type) {
    if (type == null) {
      return "another shape";
    }
    if (Collection.class.isAssignableFrom(type) || type.isArray()) {
      return "a list";
    }
    if (type == String.class) {
      return "a string";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
      return "a number";
    }
    if (Map.class.isAssignableFrom(type) || !type.getName().startsWith("java.")) {
      return "an object";
    }
    return "another shape";
  }

  /** What the API server stored at that field: its JSON type, and a short quote of a scalar. */
  private static String describe(JsonNode value) {
    if (value == null || value.isMissingNode()) {
      return "a value";
    }
    if (value.isNull()) {
      return "null";
    }
    if (value.isArray()) {
      return "a list";
    }
    if (value.isObject()) {
      return "an object";
    }
    String text = value.isString() ? value.asString() : value.toString();
    String quoted = text.length() > QUOTED_MAX ? text.substring(0, QUOTED_MAX) + "…" : text;
    String type = value.isString() ? "a string" : value.isBoolean() ? "a boolean" : "a number";
    return type + " (" + (value.isString() ? "\"" + quoted + "\"" : quoted) + ")";
  }
}
