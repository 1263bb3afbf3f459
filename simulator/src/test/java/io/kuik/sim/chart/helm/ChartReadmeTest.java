package io.kuik.sim.chart.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * chart/README.md documents every value of values.yaml. Needs no helm: it reads both files.
 *
 * <p>A value counts as documented when the README's table has a row for it or for one of its
 * parents ({@code syncer.resources} documents {@code syncer.resources.requests.cpu}).
 */
class ChartReadmeTest {

  @Test
  void readmeHasARowForEveryValue() throws Exception {
    JsonNode values =
        YAMLMapper.builder()
            .build()
            .readTree(Files.readString(Helm.chartDir().resolve("values.yaml")));
    String readme = Files.readString(Helm.chartDir().resolve("README.md"));
    List<String> documentedKeys = new ArrayList<>();
    for (String line : readme.lines().toList()) {
      if (line.startsWith("| `")) {
        documentedKeys.add(line.substring(3, line.indexOf('`', 3)));
      }
    }

    List<String> leaves = new ArrayList<>();
    collectLeaves("", values, leaves);
    List<String> undocumented =
        leaves.stream().filter(leaf -> !documented(leaf, documentedKeys)).toList();

    assertFalse(leaves.isEmpty(), "values.yaml holds values");
    assertEquals(List.of(), undocumented, "values missing from chart/README.md's table");
  }

  private static boolean documented(String leaf, List<String> documentedKeys) {
    for (String key : documentedKeys) {
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
