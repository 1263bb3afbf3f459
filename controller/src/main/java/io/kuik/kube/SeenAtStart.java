package io.kuik.kube;

import io.kuik.model.ObservedNamespace;
import io.kuik.model.RewrittenPod;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The namespaces and pods the core's start saw. fabric8 completes an informer's start once its
 * first list is in the store, and hands that list's ADDED notifications to the handlers later, on
 * their own threads: one that reaches the driver after the core started says nothing new, yet would
 * put every pair of the namespace before the start's pass, ahead of new rewrites (10,001
 * namespaces: 200,000 pairs). Each object's first notification that carries what the start saw is
 * dropped; any other, and every later one, goes through. Kept until {@link #clear()}.
 */
final class SeenAtStart {

  private final Map<String, ObservedNamespace> namespaces = new HashMap<>();
  private final Map<String, RewrittenPod> pods = new HashMap<>();

  void saw(ObservedNamespace namespace) {
    namespaces.put(namespace.name(), namespace);
  }

  void saw(RewrittenPod pod) {
    pods.put(pod.namespace() + "/" + pod.name(), pod);
  }

  /** Whether this notification of the namespace, which the view shows as {@code now}, is stale. */
  boolean alreadySeen(String name, Optional<ObservedNamespace> now) {
    ObservedNamespace seen = namespaces.remove(name);
    return seen != null && now.isPresent() && seen.equals(now.get());
  }

  /** Whether this ADDED notification of a pod is the start's list arriving late. */
  boolean alreadySeen(RewrittenPod added) {
    RewrittenPod seen = pods.remove(added.namespace() + "/" + added.name());
    return added.equals(seen);
  }

  int size() {
    return namespaces.size() + pods.size();
  }

  void clear() {
    namespaces.clear();
    pods.clear();
  }
}
