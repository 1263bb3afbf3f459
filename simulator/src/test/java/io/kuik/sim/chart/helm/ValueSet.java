package io.kuik.sim.chart.helm;

import java.util.ArrayList;
import java.util.List;

/**
 * One way to install the chart: a release name, an install namespace and {@code --set} values.
 *
 * @param label how test reports name this case
 * @param sets {@code key=value} pairs passed with {@code --set}
 */
record ValueSet(String label, String release, String namespace, List<String> sets) {

  ValueSet {
    sets = List.copyOf(sets);
  }

  static final ValueSet DEFAULTS = new ValueSet("default values", "kuik", "kuik", List.of());
  static final ValueSet CERT_MANAGER =
      new ValueSet("cert-manager", "kuik", "kuik", List.of("certManager.enabled=true"));
  static final ValueSet OTHER_NAMESPACE =
      new ValueSet("namespace kuik-other", "kuik", "kuik-other", List.of());
  static final ValueSet OTHER_RELEASE = new ValueSet("release images", "images", "kuik", List.of());

  /** The value sets every structural check runs on. */
  static List<ValueSet> all() {
    return List.of(DEFAULTS, CERT_MANAGER, OTHER_NAMESPACE, OTHER_RELEASE);
  }

  /** The same release with more values. */
  ValueSet with(String... moreSets) {
    List<String> merged = new ArrayList<>(sets);
    merged.addAll(List.of(moreSets));
    return new ValueSet(label + " + " + String.join(",", moreSets), release, namespace, merged);
  }

  boolean certManager() {
    return sets.contains("certManager.enabled=true");
  }

  String syncerName() {
    return release + "-secret-syncer";
  }

  String webhookName() {
    return release + "-webhook";
  }

  List<String> setFlags() {
    List<String> flags = new ArrayList<>();
    for (String set : sets) {
      flags.add("--set");
      flags.add(set);
    }
    return flags;
  }

  @Override
  public String toString() {
    return label;
  }
}
