package io.kuik.sim.chart.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * chart/README.md's table of values is checked against values.yaml, both ways, so that neither can
 * drift: every value has a row (its own, or a parent's: {@code syncer.resources} documents {@code
 * syncer.resources.requests.cpu}), every row names a value, and a default written as one code span
 * ({@code `15m`}, {@code `""`}, {@code `[]`}) is the value's default. Needs no helm.
 */
class ChartReadmeTest {

  private JsonNode values;
  private String readme;
  private Map<String, String> rows;

  @BeforeEach
  void readBoth() throws Exception {
    values =
        YAMLMapper.builder()
            .build()
            .readTree(Files.readString(Helm.chartDir().resolve("values.yaml")));
    readme = Files.readString(Helm.chartDir().resolve("README.md"));
    rows = new LinkedHashMap<>();
    for (String line : readme.lines().toList()) {
      if (line.startsWith("| `")) {
        String[] cells = line.split(" \\| ");
        rows.put(line.substring(3, line.indexOf('`', 3)), cells.length > 2 ? cells[2].trim() : "");
      }
    }
  }

  @Test
  void readmeHasARowForEveryValue() {
    List<String> leaves = new ArrayList<>();
    collectLeaves("", values, leaves);
    List<String> undocumented = leaves.stream().filter(leaf -> !documented(leaf)).toList();

    assertFalse(leaves.isEmpty(), "values.yaml holds values");
    assertEquals(List.of(), undocumented, "values missing from chart/README.md's table");
  }

  @Test
  void everyRowNamesAValueOfValuesYaml() {
    List<String> stale = rows.keySet().stream().filter(key -> at(key).isMissingNode()).toList();

    assertEquals(List.of(), stale, "rows of chart/README.md naming no value of values.yaml");
  }

  @Test
  void everyDefaultWrittenAsCodeIsTheValuesYamlDefault() {
    List<String> wrong = new ArrayList<>();
    rows.forEach(
        (key, cell) -> {
          if (cell.matches("`[^`]*`")) {
            String written = cell.substring(1, cell.length() - 1);
            String actual = asWritten(at(key));
            if (!written.equals(actual)) {
              wrong.add(key + ": README says " + written + ", values.yaml " + actual);
            }
          }
        });

    assertEquals(List.of(), wrong, "defaults that differ between chart/README.md and values.yaml");
  }

  @Test
  void readmeNamesNoModuleThatIsGone() {
    assertFalse(readme.contains("chart-tests"), "chart/README.md names the removed chart-tests");
  }

  private JsonNode at(String key) {
    JsonNode node = values;
    for (String part : key.split("\\.")) {
      node = node.path(part);
    }
    return node;
  }

  /** The value as the README writes a default: `""` for an empty string, `[]`, `{}`. */
  private static String asWritten(JsonNode node) {
    if (node.isString()) {
      return node.asString().isEmpty() ? "\"\"" : node.asString();
    }
    if (node.isArray() || node.isObject()) {
      return node.isEmpty() ? (node.isArray() ? "[]" : "{}") : node.toString();
    }
    return node.asString();
  }

  private boolean documented(String leaf) {
    for (String key : rows.keySet()) {
      if (leaf.equals(key) || leaf.startsWith(key + ".")) {
        return true;
      }
    }
    return false;
  }

  private static void collectLeaves(String path, JsonNode node, List<String> leaves) {
    if (node.isObject() && !node.isEmpty()) {
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        collectLeaves(
            path.isEmpty() ? field.getKey() : path + "." + field.getKey(),
            field.getValue(),
            leaves);
      }
    } else {
      leaves.add(path);
    }
  }
}
