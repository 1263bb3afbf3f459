package io.kuik.sim.chart;

import java.util.Objects;

/**
 * The two values the chart's files may use: the Helm release name and the namespace the release is
 * installed in (the cluster resource namespace). The ServiceAccount names derive from the release
 * name exactly as the chart spells them.
 */
public record Release(String name, String namespace) {

  /** {@code helm install kuik ... --namespace kuik-system}. */
  public static final Release DEFAULT = new Release("kuik", "kuik-system");

  public Release {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
    if (name.isBlank() || namespace.isBlank()) {
      throw new IllegalArgumentException("a release needs a name and a namespace");
    }
  }

  /** The secret-syncer's ServiceAccount, in {@link #namespace()}. */
  public String syncerServiceAccount() {
    return name + "-secret-syncer";
  }

  /** The pod webhook's ServiceAccount, in {@link #namespace()}. */
  public String webhookServiceAccount() {
    return name + "-webhook";
  }
}
