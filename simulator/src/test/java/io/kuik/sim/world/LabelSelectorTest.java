package io.kuik.sim.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.LabelSelector;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LabelSelectorTest {

  // If the selector is ..., and the labels are ..., expect a match or not.
  @ParameterizedTest(name = "''{0}'' on ''{1}'' -> {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "                              | tier=prod          | true",
        "tier=prod                     | tier=prod          | true",
        "tier==prod                    | tier=prod          | true",
        "tier=prod                     | tier=dev           | false",
        "tier=prod                     |                    | false",
        "tier!=prod                    | tier=dev           | true",
        "tier!=prod                    |                    | true",
        "tier!=prod                    | tier=prod          | false",
        "tier in (prod,staging)        | tier=staging       | true",
        "tier in (prod,staging)        | tier=dev           | false",
        "tier in (prod,staging)        |                    | false",
        "tier notin (prod,staging)     | tier=dev           | true",
        "tier notin (prod,staging)     |                    | true",
        "tier notin (prod,staging)     | tier=prod          | false",
        "tier                          | tier=              | true",
        "tier                          | app=x              | false",
        "!tier                         | app=x              | true",
        "!tier                         | tier=prod          | false",
        "tier in (prod),!legacy,app=x  | tier=prod;app=x    | true",
        "tier in (prod),!legacy,app=x  | tier=prod;app=x;legacy=y | false"
      })
  void matchesWithTheApiServersSemantics(String selector, String labels, boolean expected) {
    assertEquals(expected, LabelSelector.parse(selector).matches(labels(labels)));
  }

  @Test
  void theStructuredFormMeansTheSame() {
    LabelSelector s =
        LabelSelector.of(
            Json.yaml(
                "matchLabels: {app: x}\nmatchExpressions:\n- {key: tier, operator: NotIn, values: [dev]}\n- {key: legacy, operator: DoesNotExist}"));
    assertEquals(LabelSelector.parse("app=x,tier notin (dev),!legacy"), s);
    assertEquals(true, s.matches(labels("app=x")));
    assertEquals(false, s.matches(labels("app=x;tier=dev")));
  }

  @Test
  void aMalformedSelectorIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> LabelSelector.parse("tier in ()"));
    assertThrows(IllegalArgumentException.class, () -> LabelSelector.parse("a=b=c"));
  }

  private static Map<String, String> labels(String text) {
    Map<String, String> out = new TreeMap<>();
    if (text != null) {
      for (String pair : text.split(";")) {
        String[] kv = pair.split("=", 2);
        out.put(kv[0], kv.length > 1 ? kv[1] : "");
      }
    }
    return out;
  }
}
