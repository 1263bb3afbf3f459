package io.kuik.sim.world.crd;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What {@code kubectl get} shows of a custom resource: the CRD's {@code additionalPrinterColumns},
 * each cell the first result of the column's JSONPath, as the API server's table convertor builds
 * it (apiextensions-apiserver {@code pkg/registry/customresource/tableconvertor/tableconvertor.go},
 * {@code rowFn}: "we can assume to have only one result"); no result is an empty cell, which
 * kubectl prints as {@code <none>}.
 *
 * <p>The JSONPath subset is the one printer columns use: {@code .field}, {@code [n]}, {@code [*]}
 * and {@code [?(@.field=="value")]}. Dates are printed as stored, not as an age.
 */
public final class PrinterColumns {

  /** kubectl's text for an empty cell. */
  public static final String NONE = "<none>";

  /** One column of the CRD's served version. */
  public record Column(String name, String jsonPath, String type, int priority) {
    public Column {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(jsonPath, "jsonPath");
    }
  }

  private PrinterColumns() {}

  /** The columns of the CRD's first version, in the order it lists them. */
  public static List<Column> of(ObjectNode crd) {
    List<Column> columns = new ArrayList<>();
    for (JsonNode c : crd.path("spec").path("versions").path(0).path("additionalPrinterColumns")) {
      columns.add(
          new Column(
              c.path("name").asString(""),
              c.path("jsonPath").asString(""),
              c.path("type").asString("string"),
              c.path("priority").asInt(0)));
    }
    return columns;
  }

  /** The cell the column shows for {@code object}. */
  public static String cell(Column column, JsonNode object) {
    List<JsonNode> results = find(object, column.jsonPath());
    if (results.isEmpty() || results.get(0).isNull() || results.get(0).isMissingNode()) {
      return NONE;
    }
    JsonNode first = results.get(0);
    return first.isValueNode() ? first.asString() : first.toString();
  }

  /** Every node the path reaches, in document order. */
  static List<JsonNode> find(JsonNode root, String path) {
    List<JsonNode> current = new ArrayList<>(List.of(root));
    int i = 0;
    while (i < path.length()) {
      char c = path.charAt(i);
      if (c == '.') {
        int end = i + 1;
        while (end < path.length() && path.charAt(end) != '.' && path.charAt(end) != '[') {
          end++;
        }
        String field = path.substring(i + 1, end);
        List<JsonNode> next = new ArrayList<>();
        for (JsonNode node : current) {
          if (node.has(field)) {
            next.add(node.get(field));
          }
        }
        current = next;
        i = end;
      } else if (c == '[') {
        int end = closing(path, i);
        current = step(current, path.substring(i + 1, end));
        i = end + 1;
      } else {
        throw new IllegalArgumentException("unsupported JSONPath " + path);
      }
    }
    return current;
  }

  private static List<JsonNode> step(List<JsonNode> current, String selector) {
    List<JsonNode> next = new ArrayList<>();
    for (JsonNode node : current) {
      if (!node.isArray()) {
        continue;
      }
      if (selector.equals("*")) {
        node.forEach(next::add);
      } else if (selector.startsWith("?(@.") && selector.endsWith(")")) {
        String[] test = selector.substring(4, selector.length() - 1).split("==", 2);
        String field = test[0].trim();
        String value = test[1].trim().replaceAll("^[\"']|[\"']$", "");
        for (JsonNode element : node) {
          if (element.has(field) && value.equals(element.get(field).asString())) {
            next.add(element);
          }
        }
      } else {
        int index = Integer.parseInt(selector.trim());
        if (index >= 0 && index < node.size()) {
          next.add(node.get(index));
        }
      }
    }
    return next;
  }

  private static int closing(String path, int open) {
    int depth = 0;
    for (int i = open; i < path.length(); i++) {
      if (path.charAt(i) == '[') {
        depth++;
      } else if (path.charAt(i) == ']' && --depth == 0) {
        return i;
      }
    }
    throw new IllegalArgumentException("unbalanced JSONPath " + path);
  }
}
