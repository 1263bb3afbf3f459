package io.kuik.sim.plan;

import java.util.List;
import java.util.Objects;

/**
 * What {@code kuik plan} assumes besides the manifests: the syncer instances (the first also runs
 * the webhook) and the registry outages. Every registry serves every image to anyone unless said
 * down.
 *
 * @param originalDown every container's original image is unreachable (its repository, not its
 *     whole registry, so an alternative on the same host stays up)
 * @param registriesDown hosts ({@code host[:port]}) whose registry is unreachable
 */
public record PlanSettings(
    List<Instance> instances, boolean originalDown, List<String> registriesDown) {

  /** The chart's defaults: one instance in {@code kuik-system}, serving namespaces by default. */
  public static final PlanSettings DEFAULTS =
      new PlanSettings(List.of(new Instance("kuik-system", true)), false, List.of());

  public PlanSettings {
    instances = List.copyOf(instances);
    registriesDown = List.copyOf(registriesDown);
    if (instances.isEmpty()) {
      throw new IllegalArgumentException("a plan needs at least one kuik instance");
    }
    if (instances.stream().map(Instance::namespace).distinct().count() != instances.size()) {
      throw new IllegalArgumentException("each kuik instance needs its own install namespace");
    }
  }

  /**
   * One syncer instance: its install namespace (the cluster resource namespace, which holds its
   * {@code secretRef} Secrets) and its {@code syncer.namespacesByDefault}.
   */
  public record Instance(String namespace, boolean namespacesByDefault) {
    public Instance {
      Objects.requireNonNull(namespace, "namespace");
    }

    @Override
    public String toString() {
      return namespace + " (namespaces by default: " + namespacesByDefault + ")";
    }
  }
}
