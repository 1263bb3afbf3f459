package io.kuik.syncer;

import io.kuik.model.PullSecretsOverride;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether this syncer instance serves a namespace at all, on top of each resource's scope: the
 * decision procedure and truth table of Istio's namespace targeting, on this project's labels
 * (docs/behaviour.md#namespace-targeting).
 *
 * @param instance this instance's install namespace, the value the instance label names
 * @param namespacesByDefault what decides a namespace with neither label
 */
public record Targeting(String instance, boolean namespacesByDefault) {

  /** Names the install namespace of the one instance that serves the namespace. */
  public static final String INSTANCE_LABEL = "kuik.enix.io/pull-secrets-instance";

  public Targeting {
    Objects.requireNonNull(instance, "instance");
  }

  public boolean serves(Map<String, String> namespaceLabels) {
    Optional<Boolean> override = PullSecretsOverride.of(namespaceLabels);
    if (override.isPresent()) {
      return override.get(); // forces every instance to serve or to ignore the namespace
    }
    String chosen = namespaceLabels == null ? null : namespaceLabels.get(INSTANCE_LABEL);
    if (chosen != null) {
      return chosen.equals(instance);
    }
    return namespacesByDefault;
  }
}
