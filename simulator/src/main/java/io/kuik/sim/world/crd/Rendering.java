package io.kuik.sim.world.crd;

import io.kuik.sim.world.object.Json;
import tools.jackson.databind.JsonNode;

/**
 * A value as a field error shows it (apimachinery {@code field.Error.ErrorBody}): strings quoted,
 * numbers and booleans bare, {@code null}; objects and lists as JSON, where Go prints its own
 * notation.
 */
final class Rendering {

  private Rendering() {}

  static String value(JsonNode value) {
    if (value == null || value.isNull()) {
      return "null";
    }
    if (value.isString()) {
      return quoted(value.asString());
    }
    return Json.write(value);
  }

  static String quoted(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
