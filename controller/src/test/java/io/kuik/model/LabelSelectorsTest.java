package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LabelSelectorsTest {

  /**
   * Selectors written compactly: {@code k=v} (matchLabels), {@code k in a|b}, {@code k notin a},
   * {@code k exists}, {@code k !exists}, joined by {@code ;}; {@code <null>} for no selector and
   * {@code {}} for an empty one. Labels as {@code k=v;k=v}, {@code -} for none.
   */
  @ParameterizedTest(name = "if selector [{0}] sees labels [{1}], expect {2}")
  @CsvSource(
      delimiter = ',',
      value = {
        "<null>, -, true",
        "<null>, tier=prod, true",
        "{}, -, true",
        "{}, tier=prod, true",
        "tier=prod, tier=prod, true",
        "tier=prod, tier=prod;team=a, true",
        "tier=prod, tier=dev, false",
        "tier=prod, -, false",
        "tier=prod;team=a, tier=prod, false",
        "tier in prod|staging, tier=staging, true",
        "tier in prod|staging, tier=dev, false",
        "tier in prod|staging, -, false",
        "tier notin dev, tier=prod, true",
        "tier notin dev, tier=dev, false",
        // Kubernetes: a missing key is "not in" any set.
        "tier notin dev, -, true",
        "tier exists, tier=, true",
        "tier exists, team=a, false",
        "tier !exists, team=a, true",
        "tier !exists, tier=prod, false",
        // matchLabels and matchExpressions must all hold.
        "team=a;tier in prod, team=a;tier=prod, true",
        "team=a;tier in prod, team=b;tier=prod, false",
        "team=a;tier in prod, team=a;tier=dev, false",
        // An invalid operator selects nothing rather than everything.
        "tier between a|b, tier=a, false",
      },
      nullValues = "<null>")
  void selectsAsKubernetesDoes(String selector, String labels, boolean selected) {
    assertEquals(selected, LabelSelectors.matches(selector(selector), labels(labels)));
  }

  @ParameterizedTest(name = "if selector [{0}] is written, expect problems {1}")
  @CsvSource(
      delimiter = '#',
      value = {
        "tier in prod|dev # []",
        "tier=prod;team exists # []",
        "tier between a # [spec.podSelector.matchExpressions[0].operator: \"between\" is not an"
            + " operator: use In, NotIn, Exists or DoesNotExist]",
        "tier in # [spec.podSelector.matchExpressions[0].values: must not be empty with operator"
            + " In]",
        "a exists;tier exists x # [spec.podSelector.matchExpressions[1].values: must be empty"
            + " with operator Exists]",
      })
  void reportsRequirementsKubernetesWouldRefuse(String selector, String problems) {
    assertEquals(
        problems, LabelSelectors.problems(selector(selector), "spec.podSelector").toString());
  }

  @ParameterizedTest(name = "if selector [{0}] is written, expect no problem")
  @CsvSource(
      value = {"<null>", "{}"},
      nullValues = "<null>")
  void findsNothingWrongInAnAbsentOrEmptySelector(String selector) {
    assertTrue(LabelSelectors.problems(selector(selector), "spec.podSelector").isEmpty());
  }

  private static LabelSelector selector(String written) {
    if (written == null) {
      return null;
    }
    LabelSelectorBuilder builder = new LabelSelectorBuilder();
    if (written.equals("{}")) {
      return builder.build();
    }
    for (String part : written.split(";")) {
      String[] words = part.trim().split(" ");
      if (words.length == 1) {
        String[] kv = words[0].split("=", 2);
        builder.addToMatchLabels(kv[0], kv[1]);
        continue;
      }
      String operator;
      switch (words[1]) {
        case "in":
          operator = "In";
          break;
        case "notin":
          operator = "NotIn";
          break;
        case "exists":
          operator = "Exists";
          break;
        case "!exists":
          operator = "DoesNotExist";
          break;
        default:
          operator = words[1];
      }
      List<String> values = words.length > 2 ? Arrays.asList(words[2].split("\\|")) : List.of();
      builder.addToMatchExpressions(new LabelSelectorRequirement(words[0], operator, values));
    }
    return builder.build();
  }

  private static Map<String, String> labels(String written) {
    Map<String, String> labels = new LinkedHashMap<>();
    if (!written.equals("-")) {
      for (String pair : written.split(";")) {
        String[] kv = pair.split("=", 2);
        labels.put(kv[0], kv[1]);
      }
    }
    return labels;
  }
}
