package io.kuik.syncer;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The grace of OnFailure entries (docs/behaviour.md#releasing-credentials): once no live pod uses
 * an auths key, it is kept for the grace period after the last moment it was needed, so pods that
 * come back in a rollout, or in a scale-up while a registry is down, still find their credential.
 *
 * <p>Memory only: a restart loses every clock, which can only shorten how long a credential
 * lingers.
 */
final class GraceClocks {

  private final Duration grace;

  /** Per pair: the keys needed at the last look, and since when each released key is unused. */
  private final Map<Pair, Map<String, Instant>> releasedSince = new HashMap<>();

  private final Map<Pair, Set<String>> neededAtLastLook = new HashMap<>();

  GraceClocks(Duration grace) {
    this.grace = grace;
  }

  /**
   * Records which keys the pair needs now and returns the keys to keep: those needed now plus those
   * released less than the grace ago. Only keys in {@code allowed} (the resource's injecting
   * entries) are kept at all: an entry removed from the resource leaves at once.
   */
  Set<String> keep(Pair pair, Set<String> neededNow, Set<String> allowed, Instant now) {
    Map<String, Instant> released = releasedSince.computeIfAbsent(pair, p -> new HashMap<>());
    for (String key : neededAtLastLook.getOrDefault(pair, Set.of())) {
      if (!neededNow.contains(key)) {
        released.putIfAbsent(key, now);
      }
    }
    neededNow.forEach(released::remove);
    released.keySet().retainAll(allowed);
    released.values().removeIf(since -> !now.isBefore(since.plus(grace)));

    Set<String> keep = new TreeSet<>(neededNow);
    keep.addAll(released.keySet());
    if (released.isEmpty()) {
      releasedSince.remove(pair);
    }
    if (neededNow.isEmpty()) {
      neededAtLastLook.remove(pair);
    } else {
      neededAtLastLook.put(pair, Set.copyOf(neededNow));
    }
    return keep;
  }

  /**
   * A pod that needed {@code key} was seen live until {@code now}, perhaps between two looks (a pod
   * created and deleted within the debounce window): its grace runs from now at the latest.
   */
  void sawNeeded(Pair pair, String key, Instant now) {
    releasedSince.computeIfAbsent(pair, p -> new HashMap<>()).merge(key, now, GraceClocks::later);
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  /** When the next released key of the pair expires, if any: the pair must be looked at then. */
  Optional<Instant> nextExpiry(Pair pair) {
    return releasedSince.getOrDefault(pair, Map.of()).values().stream()
        .min(Instant::compareTo)
        .map(since -> since.plus(grace));
  }

  void forget(Pair pair) {
    releasedSince.remove(pair);
    neededAtLastLook.remove(pair);
  }
}
