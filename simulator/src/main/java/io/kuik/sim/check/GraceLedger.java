package io.kuik.sim.check;

import io.kuik.sim.check.WorldView.EntryView;
import io.kuik.sim.check.WorldView.InjectSecret;
import io.kuik.sim.check.WorldView.NamespaceView;
import io.kuik.sim.check.WorldView.Policy;
import io.kuik.sim.check.WorldView.ResourceView;
import io.kuik.sim.trace.Target;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The checkers' record of the OnFailure grace, auths key by auths key of each pair's Secret, kept
 * from one check to the next: when a live pod last needed the key (the seed's "needed"), when it
 * was first seen needed by nothing after that, whether the Secret held it at this check and the one
 * before, and when the pair was last seen in a state that lets its keys go at once.
 *
 * <p>Those states are the documented ways a grace ends early: the resource deleted or no longer
 * OnFailure, the entry gone from it or left without a credential, the namespace terminating, gone,
 * or no longer served by this syncer instance (the namespace-targeting labels).
 */
final class GraceLedger {

  /** One auths key of one pair's Secret, e.g. team-a / kuik-inject-…-r1 / quay.io/r1/app. */
  record Key(String namespace, String secret, String key) {
    Target target() {
      return Target.secret(namespace, secret);
    }

    @Override
    public String toString() {
      return namespace + "/" + secret + " key " + key;
    }
  }

  static final class History {
    /** The last check at which a live pod needed the key; null if none ever did. */
    Instant podNeed;

    /** Whether the syncer's view may have been stale at that check: it may not know the pod. */
    boolean podNeedStale;

    /** The first check after the last need (of any kind) at which nothing needed it. */
    Instant unneededSince;

    /** The last check at which the pair's grace could end at once. */
    Instant lastExempt;

    boolean heldBefore;
    boolean heldNow;
    boolean secretExists;

    /** Whether the pair was seen in a state that ends a grace at once, at or after {@code t}. */
    boolean exemptSince(Instant t) {
      return lastExempt != null && !lastExempt.isBefore(t);
    }
  }

  private final String installNamespace;
  private final Map<Key, History> keys =
      new TreeMap<>(
          java.util.Comparator.comparing(Key::namespace)
              .thenComparing(Key::secret)
              .thenComparing(Key::key));

  GraceLedger(String installNamespace) {
    this.installNamespace = installNamespace;
  }

  Map<Key, History> keys() {
    return keys;
  }

  /**
   * Records this check.
   *
   * @param stale whether the syncer's view may be stale now
   */
  void observe(WorldView view, boolean stale) {
    Instant now = view.now();
    Set<Key> seen = new HashSet<>();
    for (ResourceView resource : view.resources().values()) {
      for (NamespaceView namespace : view.namespaces().values()) {
        Set<String> needed = Scope.neededKeys(resource, namespace, view);
        boolean onFailure = resource.rewritePolicy() == Policy.ON_FAILURE;
        Set<String> podNeeded = onFailure && !namespace.terminating() ? needed : Set.of();
        Optional<InjectSecret> secret =
            Optional.ofNullable(
                view.injectSecrets().get(Target.secret(namespace.name(), resource.secretName())));
        Set<String> candidates = new HashSet<>(podNeeded);
        for (Key tracked : keys.keySet()) {
          if (tracked.namespace().equals(namespace.name())
              && tracked.secret().equals(resource.secretName())) {
            candidates.add(tracked.key());
          }
        }
        for (String key : candidates) {
          Key k = new Key(namespace.name(), resource.secretName(), key);
          seen.add(k);
          History h = keys.computeIfAbsent(k, x -> new History());
          if (podNeeded.contains(key)) {
            h.podNeed = now;
            h.podNeedStale = stale;
            h.unneededSince = null;
          } else if (needed.contains(key)) {
            h.unneededSince = null;
          } else if (h.unneededSince == null) {
            h.unneededSince = now;
          }
          if (endsAtOnce(resource, namespace, key, view)) {
            h.lastExempt = now;
          }
          h.heldBefore = h.heldNow;
          h.secretExists = secret.isPresent();
          h.heldNow = secret.map(s -> s.auths().containsKey(key)).orElse(false);
        }
      }
    }
    // A pair whose resource or namespace is gone: its Secret goes with it.
    for (Map.Entry<Key, History> e : keys.entrySet()) {
      if (!seen.contains(e.getKey())) {
        History h = e.getValue();
        Optional<InjectSecret> secret =
            Optional.ofNullable(view.injectSecrets().get(e.getKey().target()));
        h.lastExempt = now;
        h.heldBefore = h.heldNow;
        h.secretExists = secret.isPresent();
        h.heldNow = secret.map(s -> s.auths().containsKey(e.getKey().key())).orElse(false);
      }
    }
  }

  private boolean endsAtOnce(
      ResourceView resource, NamespaceView namespace, String key, WorldView view) {
    if (resource.rewritePolicy() != Policy.ON_FAILURE
        || namespace.terminating()
        || !Scope.served(namespace.labels(), installNamespace)) {
      return true;
    }
    for (EntryView entry : resource.entries()) {
      if (entry.repository().equals(key)) {
        return Scope.credentialFor(entry, view.sources()).isEmpty();
      }
    }
    return true; // the entry left the resource
  }
}
