package io.kuik.sim.world.admission;

import dev.cel.common.values.NullValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Turns stored objects into the plain values the CEL runtime takes: maps, lists, strings, longs
 * (every integer, as CEL's {@code int}), doubles, booleans and CEL's null.
 */
public final class CelValues {

  public static final Object NULL = NullValue.NULL_VALUE;

  private CelValues() {}

  public static Object of(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return NULL;
    }
    if (node.isObject()) {
      var map = new LinkedHashMap<String, Object>();
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        map.put(field.getKey(), of(field.getValue()));
      }
      return Collections.unmodifiableMap(map);
    }
    if (node.isArray()) {
      var list = new ArrayList<Object>(node.size());
      for (JsonNode item : node) {
        list.add(of(item));
      }
      return Collections.unmodifiableList(list);
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      return node.longValue();
    }
    if (node.isNumber()) {
      return node.doubleValue();
    }
    return node.asString();
  }

  static Map<String, Object> map(Object... keysAndValues) {
    var map = new LinkedHashMap<String, Object>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      Object value = keysAndValues[i + 1];
      map.put((String) keysAndValues[i], value == null ? NULL : value);
    }
    return Collections.unmodifiableMap(map);
  }

  static List<Object> list(List<String> values) {
    return List.copyOf(values);
  }
}
