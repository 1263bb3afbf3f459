package io.kuik.kube.syncer;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The records of namespaces and pods the core's start saw. fabric8 completes an informer's start
 * once its first list is in the cache, and hands that list's add notifications to the handlers
 * later, on their own threads: one that arrives after the core started says nothing new, yet would
 * put every pair of the namespace before the start's pass, ahead of new rewrites (10,001
 * namespaces: 200,000 pairs). The first notification of each object takes its entry: dropped when
 * it is an add of what the start saw, passed on otherwise (a delete, an update, an add of something
 * else). Kept until {@link #clear()}.
 */
final class SeenAtStart {

  private final Map<String, Object> seen = new HashMap<>();

  /** The start saw {@code record} under {@code key} ({@code namespace/name}, or the name). */
  void saw(String key, Object record) {
    seen.put(key, record);
  }

  /**
   * Whether this notification of the object under {@code key} repeats the start: an add ({@code
   * added}) of the very record the start saw. Any first notification takes the object's entry.
   */
  boolean repeatsTheStart(String key, boolean added, Object record) {
    Object saw = seen.remove(key);
    return added && saw != null && Objects.equals(saw, record);
  }

  int size() {
    return seen.size();
  }

  void clear() {
    seen.clear();
  }
}
