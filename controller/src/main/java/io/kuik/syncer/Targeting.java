package io.kuik.syncer;

import java.util.Map;
import java.util.Objects;

/**
 * Whether this syncer instance serves a namespace at all, on top of each resource's scope: the
 * decision procedure and truth table of Istio's namespace targeting, on this project's labels
 * (docs/behaviour.md#namespace-targeting).
 *
 * @param instance this instance's install namespace, the value the instance label names
 * @param namespacesByDefault what decides a namespace with neither label
 */
public record Targeting(String instance, boolean namespacesByDefault) {

  /** "true" forces every instance to serve the namespace, "false" to ignore it. */
  public static final String OVERRIDE_LABEL = "kuik.enix.io/pull-secrets-override";

  /** Names the install namespace of the one instance that serves the namespace. */
  public static final String INSTANCE_LABEL = "kuik.enix.io/pull-secrets-instance";

  public Targeting {
    Objects.requireNonNull(instance, "instance");
  }

  public boolean serves(Map<String, String> namespaceLabels) {
    Map<String, String> labels = namespaceLabels == null ? Map.of() : namespaceLabels;
    String override = labels.get(OVERRIDE_LABEL);
    if ("true".equals(override)) {
      return true;
    }
    if ("false".equals(override)) {
      return false;
    }
    String chosen = labels.get(INSTANCE_LABEL);
    if (chosen != null) {
      return chosen.equals(instance);
    }
    return namespacesByDefault;
  }
}
