package io.kuik.sim.check;

import io.kuik.sim.check.WorldView.EntryView;
import io.kuik.sim.check.WorldView.NamespaceView;
import io.kuik.sim.check.WorldView.PodView;
import io.kuik.sim.check.WorldView.Policy;
import io.kuik.sim.check.WorldView.ResourceView;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The checker's own model of the documented table of where a Secret lands
 * (docs/behaviour.md#where-a-secret-lands): which auths keys a pair (resource, namespace) needs
 * right now. Written from the documentation, not from the syncer, and only for the shapes the
 * explorer builds (ImageAlternatives whose entries all carry a secretRef, namespaces without
 * targeting labels).
 */
public final class Scope {

  private Scope() {}

  /**
   * The keys the pair needs now. Always: every entry when the namespaceSelector selects the
   * namespace. OnFailure: the entries its live rewritten pods' images fall under, when the
   * namespaceSelector selects the namespace (docs/behaviour.md#which-rewrites-count: a claim counts
   * only where the webhook could have made it). A terminating namespace counts as needing every
   * entry: its pods and its Secrets go away together, and the Secret leaves with the namespace, not
   * by a write.
   */
  public static Set<String> neededKeys(
      ResourceView resource, NamespaceView namespace, WorldView w) {
    Set<String> keys = new TreeSet<>();
    if (resource.rewritePolicy() == Policy.ALWAYS) {
      if (resource.namespaceSelector().matches(namespace.labels())) {
        resource.entries().forEach(e -> keys.add(e.repository()));
      }
    } else if (resource.rewritePolicy() == Policy.ON_FAILURE) {
      if (namespace.terminating()) {
        resource.entries().forEach(e -> keys.add(e.repository()));
        return keys;
      }
      if (!resource.namespaceSelector().matches(namespace.labels())) {
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
   * repository, for the keys the explorer writes (a host, or a host and path; no scheme, port or
   * glob): of the keys that are the repository's host or whose text is a string prefix of the
   * repository with at least its host and a {@code /}, the one that sorts last (kubernetes/
   * kubernetes pkg/credentialprovider/keyring.go, {@code URLsMatch} and the reverse-sorted index of
   * {@code BasicDockerKeyring.Add}). Empty when the source is missing or holds nothing for it (the
   * entry is then left out).
   */
  public static Optional<String> credentialFor(
      EntryView entry, Map<String, Map<String, String>> sources) {
    Map<String, String> auths = entry.secretRef() == null ? null : sources.get(entry.secretRef());
    if (auths == null) {
      return Optional.empty();
    }
    String repository = entry.repository();
    int slash = repository.indexOf('/');
    String host = slash < 0 ? repository : repository.substring(0, slash);
    String best = null;
    for (String key : auths.keySet()) {
      boolean matches =
          key.equals(host) || (key.startsWith(host + "/") && repository.startsWith(key));
      if (matches && (best == null || key.compareTo(best) > 0)) {
        best = key;
      }
    }
    return best == null ? Optional.empty() : Optional.of(auths.get(best));
  }
}
