package io.kuik.model;

import java.util.Arrays;
import java.util.Collection;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The namespaces kuik serves at all, one definition for the webhook and the syncer: every namespace
 * but kube-system (the control plane's mirror pods, DNS and the network plugin must start whatever
 * kuik does), kuik's own install namespace (the webhook never depends on itself) and the ones the
 * chart's {@code webhook.excludedNamespaces} adds. The chart renders the webhook configuration's
 * namespaceSelector from the same list it passes both processes ({@code --excluded-namespaces}), so
 * that no pod there is rewritten, no claim of a rewrite there counts, and no Secret is written
 * there (docs/behaviour.md#namespaces-kuik-serves).
 *
 * @param installNamespace kuik's install namespace, the cluster resource namespace
 * @param excluded the namespaces the chart's {@code webhook.excludedNamespaces} names
 */
public record ServedNamespaces(String installNamespace, Set<String> excluded) {

  /** Never served. */
  public static final String KUBE_SYSTEM = "kube-system";

  public ServedNamespaces {
    Objects.requireNonNull(installNamespace, "installNamespace");
    excluded = Set.copyOf(new TreeSet<>(excluded));
  }

  /** Every namespace but kube-system and the install namespace. */
  public static ServedNamespaces allBut(String installNamespace) {
    return new ServedNamespaces(installNamespace, Set.of());
  }

  /**
   * From a comma-separated list, as {@code --excluded-namespaces} takes it.
   *
   * @throws IllegalArgumentException for a name that is no namespace name
   */
  public static ServedNamespaces parse(String installNamespace, String commaSeparated) {
    Set<String> names = new TreeSet<>();
    if (commaSeparated != null && !commaSeparated.isBlank()) {
      Arrays.stream(commaSeparated.split(",")).map(String::strip).forEach(names::add);
    }
    for (String name : names) {
      if (!Dns1123.isLabel(name)) {
        throw new IllegalArgumentException(
            "'" + name + "' in the excluded namespaces is not a namespace name");
      }
    }
    return new ServedNamespaces(installNamespace, names);
  }

  /** Whether kuik serves {@code namespace}: no rewrite, claim or Secret there otherwise. */
  public boolean serves(String namespace) {
    return !namespace.equals(KUBE_SYSTEM)
        && !namespace.equals(installNamespace)
        && !excluded.contains(namespace);
  }

  /** Every namespace never served: kube-system, the install namespace, then the excluded ones. */
  public Collection<String> neverServed() {
    Set<String> all = new TreeSet<>(excluded);
    all.add(KUBE_SYSTEM);
    all.add(installNamespace);
    return all;
  }
}
