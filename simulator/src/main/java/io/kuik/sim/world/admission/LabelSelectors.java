package io.kuik.sim.world.admission;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Kubernetes label selectors: every matchLabels pair and every matchExpressions requirement must
 * hold (In, NotIn, Exists, DoesNotExist). An absent or empty selector matches everything.
 */
final class LabelSelectors {

  private LabelSelectors() {}

  static boolean matches(JsonNode selector, Map<String, String> labels) {
    if (selector == null || selector.isMissingNode() || selector.isNull()) {
      return true;
    }
    for (Map.Entry<String, JsonNode> required : selector.path("matchLabels").properties()) {
      if (!required.getValue().asString().equals(labels.get(required.getKey()))) {
        return false;
      }
    }
    for (JsonNode requirement : selector.path("matchExpressions")) {
      if (!holds(requirement, labels)) {
        return false;
      }
    }
    return true;
  }

  private static boolean holds(JsonNode requirement, Map<String, String> labels) {
    String key = Json.text(requirement, "key");
    List<String> values = Json.strings(requirement, "values");
    String value = labels.get(key);
    switch (Json.text(requirement, "operator")) {
      case "In":
        return value != null && values.contains(value);
      case "NotIn":
        return value == null || !values.contains(value);
      case "Exists":
        return value != null;
      case "DoesNotExist":
        return value == null;
      default:
        return false; // the API server refuses such a selector; it selects nothing here
    }
  }

  static Map<String, String> labelsOf(JsonNode object) {
    var labels = new HashMap<String, String>();
    if (object != null) {
      for (Map.Entry<String, JsonNode> label :
          object.path("metadata").path("labels").properties()) {
        labels.put(label.getKey(), label.getValue().asString());
      }
    }
    return labels;
  }
}
