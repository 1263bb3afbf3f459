package io.kuik.sim.explore;

import java.util.List;
import java.util.Objects;

/**
 * An ImageAlternative's spec as the explorer draws it: its rewrite policy, one of three namespace
 * selectors, and alternatives on the resource's repositories, each with a source Secret.
 */
record Spec(String rewritePolicy, Selector selector, List<Alternative> alternatives) {

  /** The namespace selectors the explorer draws from. */
  enum Selector {
    /** No namespaceSelector: every namespace. */
    EVERY_NAMESPACE,
    /** {@code matchLabels: {tier: prod}}. */
    TIER_PROD,
    /** {@code tier In (prod, dev)}. */
    TIER_PROD_OR_DEV
  }

  /** One alternative: its repository and the name of its source Secret. */
  record Alternative(String repository, String secretRef) {
    Alternative {
      Objects.requireNonNull(repository, "repository");
      Objects.requireNonNull(secretRef, "secretRef");
    }
  }

  Spec {
    if (!rewritePolicy.equals("Always") && !rewritePolicy.equals("OnFailure")) {
      throw new IllegalArgumentException("rewritePolicy is Always or OnFailure: " + rewritePolicy);
    }
    Objects.requireNonNull(selector, "selector");
    alternatives = List.copyOf(alternatives);
    if (alternatives.isEmpty()) {
      throw new IllegalArgumentException("a spec has at least one alternative");
    }
  }

  /** As a manifest's {@code spec}, in YAML. */
  String yaml() {
    StringBuilder yaml = new StringBuilder("spec:\n");
    yaml.append("  rewritePolicy: ").append(rewritePolicy).append('\n');
    switch (selector) {
      case EVERY_NAMESPACE -> {}
      case TIER_PROD -> yaml.append("  namespaceSelector:\n    matchLabels: {tier: prod}\n");
      case TIER_PROD_OR_DEV ->
          yaml.append(
              "  namespaceSelector:\n    matchExpressions:\n"
                  + "    - {key: tier, operator: In, values: [prod, dev]}\n");
    }
    yaml.append("  alternatives:\n");
    for (Alternative alternative : alternatives) {
      yaml.append("  - repository: ")
          .append(alternative.repository())
          .append("\n    auth:\n      secretRef: {name: ")
          .append(alternative.secretRef())
          .append("}\n");
    }
    return yaml.toString();
  }

  /** The spec on one line, for the action log. */
  String summary() {
    return yaml()
        .replace("spec:\n", "")
        .replace("\n    auth:\n      secretRef: ", " ")
        .replaceAll("\\s+", " ")
        .trim();
  }
}
