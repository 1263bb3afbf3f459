package io.kuik.syncer;

import io.kuik.model.PullSecretsOverride;
import io.kuik.model.ServedNamespaces;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether this syncer instance serves a namespace at all, on top of each resource's scope: never a
 * namespace kuik does not serve ({@link ServedNamespaces}, the webhook's own definition), and
 * otherwise the decision procedure and truth table of Istio's namespace targeting, on this
 * project's labels (docs/behaviour.md#namespace-targeting).
 *
 * @param instance this instance's install namespace, the value the instance label names
 * @param namespacesByDefault what decides a namespace with neither label
 * @param served the namespaces kuik serves at all
 */
public record Targeting(String instance, boolean namespacesByDefault, ServedNamespaces served) {

  /** Names the install namespace of the one instance that serves the namespace. */
  public static final String INSTANCE_LABEL = "kuik.enix.io/pull-secrets-instance";

  public Targeting {
    Objects.requireNonNull(instance, "instance");
    Objects.requireNonNull(served, "served");
  }

  /** Serving every namespace but kube-system and the install namespace {@code instance}. */
  public Targeting(String instance, boolean namespacesByDefault) {
    this(instance, namespacesByDefault, ServedNamespaces.allBut(instance));
  }

  /** Whether this instance serves the namespace {@code name} with these labels. */
  public boolean serves(String name, Map<String, String> namespaceLabels) {
    return served.serves(name) && servesByLabels(namespaceLabels);
  }

  /** The labels' part of the decision alone (a namespace kuik serves). */
  public boolean servesByLabels(Map<String, String> namespaceLabels) {
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
