package io.kuik.model;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kubernetes label selector semantics for a routing resource's {@code podSelector} and {@code
 * namespaceSelector}: {@code matchLabels} and every {@code matchExpressions} requirement must hold.
 * A {@code null} or empty selector selects everything (docs/behaviour.md#routing-resources).
 *
 * <p>The API server does not check the selectors of a custom resource beyond their shape, so an
 * unknown operator can reach the controllers: {@link #problems} reports it, and {@link #matches}
 * treats such a selector as selecting nothing, so that a mistake never spreads a credential.
 */
public final class LabelSelectors {

  static final Set<String> OPERATORS = Set.of("In", "NotIn", "Exists", "DoesNotExist");

  private LabelSelectors() {}

  /** Whether {@code selector} selects an object carrying {@code labels} ({@code null} = none). */
  public static boolean matches(LabelSelector selector, Map<String, String> labels) {
    if (selector == null) {
      return true;
    }
    Map<String, String> present = labels == null ? Map.of() : labels;
    if (selector.getMatchLabels() != null) {
      for (Map.Entry<String, String> wanted : selector.getMatchLabels().entrySet()) {
        if (!wanted.getValue().equals(present.get(wanted.getKey()))) {
          return false;
        }
      }
    }
    if (selector.getMatchExpressions() != null) {
      for (LabelSelectorRequirement requirement : selector.getMatchExpressions()) {
        if (!holds(requirement, present)) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean holds(LabelSelectorRequirement requirement, Map<String, String> labels) {
    String value = labels.get(requirement.getKey());
    List<String> values = requirement.getValues() == null ? List.of() : requirement.getValues();
    String operator = requirement.getOperator() == null ? "" : requirement.getOperator();
    switch (operator) {
      case "In":
        return value != null && values.contains(value);
      case "NotIn":
        // Kubernetes: an object without the key is "not in" any set of values.
        return value == null || !values.contains(value);
      case "Exists":
        return value != null;
      case "DoesNotExist":
        return value == null;
      default:
        return false;
    }
  }

  /**
   * What is wrong with {@code selector}, each problem addressed under {@code field} (e.g. {@code
   * spec.podSelector.matchExpressions[0].operator}); empty when it is valid or {@code null}.
   */
  public static List<Problem> problems(LabelSelector selector, String field) {
    List<Problem> problems = new ArrayList<>();
    if (selector == null || selector.getMatchExpressions() == null) {
      return problems;
    }
    List<LabelSelectorRequirement> requirements = selector.getMatchExpressions();
    for (int i = 0; i < requirements.size(); i++) {
      String at = field + ".matchExpressions[" + i + "]";
      LabelSelectorRequirement requirement = requirements.get(i);
      if (requirement == null) {
        problems.add(new Problem(at, "is empty: give a key and an operator"));
        continue;
      }
      if (requirement.getKey() == null || requirement.getKey().isEmpty()) {
        problems.add(new Problem(at + ".key", "is required: name the label to test"));
      }
      String operator = requirement.getOperator();
      boolean hasValues = requirement.getValues() != null && !requirement.getValues().isEmpty();
      if (operator == null || !OPERATORS.contains(operator)) {
        problems.add(
            new Problem(
                at + ".operator",
                "\"" + operator + "\" is not an operator: use In, NotIn, Exists or DoesNotExist"));
      } else if ((operator.equals("In") || operator.equals("NotIn")) && !hasValues) {
        problems.add(new Problem(at + ".values", "must not be empty with operator " + operator));
      } else if ((operator.equals("Exists") || operator.equals("DoesNotExist")) && hasValues) {
        problems.add(new Problem(at + ".values", "must be empty with operator " + operator));
      }
    }
    return problems;
  }
}
