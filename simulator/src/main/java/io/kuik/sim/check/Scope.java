package io.kuik.sim.check;

import io.kuik.sim.check.WorldView.EntryView;
import io.kuik.sim.check.WorldView.NamespaceView;
import io.kuik.sim.check.WorldView.PodView;
import io.kuik.sim.check.WorldView.ResourceView;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The checker's own model of the seed's table "where a Secret lands" (DESIGN.md §2.4.1): which
 * auths keys a pair (resource, namespace) needs right now. Written from the seed, not from the
 * syncer, and only for the shapes the explorer builds (ImageAlternatives whose entries all carry a
 * secretRef, namespaces without targeting labels).
 */
public final class Scope {

  private Scope() {}

  /**
   * The keys the pair needs now. Always: every entry when the namespaceSelector selects the
   * namespace. OnFailure: the entries its live rewritten pods' images fall under. A terminating
   * namespace counts as needing every entry: its pods and its Secrets go away together, and the
   * Secret leaves with the namespace, not by a write.
   */
  public static Set<String> neededKeys(
      ResourceView resource, NamespaceView namespace, WorldView w) {
    Set<String> keys = new TreeSet<>();
    if (resource.rewritePolicy().equals("Always")) {
      if (resource.namespaceSelector().matches(namespace.labels())) {
        resource.entries().forEach(e -> keys.add(e.repository()));
      }
    } else if (resource.rewritePolicy().equals("OnFailure")) {
      if (namespace.terminating()) {
        resource.entries().forEach(e -> keys.add(e.repository()));
        return keys;
      }
      for (PodView pod : w.pods()) {
        if (pod.live()
            && pod.namespace().equals(namespace.name())
            && resource.name().equals(pod.rewriter())) {
          resource.entryServing(pod.image()).ifPresent(e -> keys.add(e.repository()));
        }
      }
    }
    return keys;
  }

  /**
   * Whether the syncer instance installed in {@code installNamespace}, serving namespaces by
   * default, serves a namespace with these labels: the override label forces it either way, else
   * the instance label picks the instance, else the default (the namespace-targeting truth table).
   */
  public static boolean served(Map<String, String> labels, String installNamespace) {
    String override = labels.get("kuik.enix.io/pull-secrets-override");
    if ("true".equals(override) || "false".equals(override)) {
      return override.equals("true");
    }
    String instance = labels.get("kuik.enix.io/pull-secrets-instance");
    return instance == null || instance.equals(installNamespace);
  }

  /**
   * The credential the kubelet would pick from the entry's source Secret for the entry's
   * repository: the longest auths key equal to it or a whole-segment prefix of it. Empty when the
   * source is missing or holds nothing for the path (the entry is then left out).
   */
  public static Optional<String> credentialFor(
      EntryView entry, Map<String, Map<String, String>> sources) {
    Map<String, String> auths = entry.secretRef() == null ? null : sources.get(entry.secretRef());
    if (auths == null) {
      return Optional.empty();
    }
    String best = null;
    for (String key : auths.keySet()) {
      boolean covers = entry.repository().equals(key) || entry.repository().startsWith(key + "/");
      if (covers && (best == null || key.length() > best.length())) {
        best = key;
      }
    }
    return best == null ? Optional.empty() : Optional.of(auths.get(best));
  }
}
