package io.kuik.sim.world.admission;

import io.kuik.sim.world.object.LabelSelector;
import io.kuik.sim.world.object.Meta;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Label selectors as admission reads them from policies and bindings: the API server's own selector
 * semantics ({@link LabelSelector}), except that a selector with an unknown operator, which the API
 * server would have refused when the object was stored, selects nothing.
 */
final class LabelSelectors {

  private LabelSelectors() {}

  static boolean matches(JsonNode selector, Map<String, String> labels) {
    try {
      return LabelSelector.of(selector).matches(labels);
    } catch (IllegalArgumentException invalid) {
      return false;
    }
  }

  static Map<String, String> labelsOf(JsonNode object) {
    return object == null ? Map.of() : Meta.labels(object);
  }
}
