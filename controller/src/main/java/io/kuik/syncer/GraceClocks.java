package io.kuik.syncer;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The grace clocks of one pair's OnFailure entries (docs/behaviour.md#releasing-credentials), as a
 * value: once no live pod uses an auths key, it is kept for the grace period after the last moment
 * it was needed, so pods that come back in a rollout, or in a scale-up while a registry is down,
 * still find their credential.
 *
 * <p>Memory only: a restart loses every clock, which can only shorten how long a credential
 * lingers.
 *
 * @param needed the keys needed at the last look
 * @param releasedSince each released key that is still held, with the moment it stopped being
 *     needed
 */
record GraceClocks(Set<String> needed, Map<String, Instant> releasedSince) {

  /** A pair with no clock: nothing needed, nothing released. */
  static final GraceClocks NONE = new GraceClocks(Set.of(), Map.of());

  GraceClocks {
    needed = Set.copyOf(needed);
    releasedSince = Map.copyOf(releasedSince);
  }

  /**
   * The clocks after a look at {@code now} that found {@code neededNow}: a key needed at the last
   * look and not now starts its grace; a key needed again stops it; a key whose grace ran out, or
   * that is not in {@code allowed} (the resource's injecting entries, in a namespace served),
   * leaves at once.
   */
  GraceClocks look(Set<String> neededNow, Set<String> allowed, Instant now, Duration grace) {
    Map<String, Instant> released = new HashMap<>(releasedSince);
    for (String key : needed) {
      if (!neededNow.contains(key)) {
        released.putIfAbsent(key, now);
      }
    }
    neededNow.forEach(released::remove);
    released.keySet().retainAll(allowed);
    released.values().removeIf(since -> !now.isBefore(since.plus(grace)));
    return new GraceClocks(neededNow, released);
  }

  /**
   * A pod that needed {@code key} was seen live until {@code now}, perhaps between two looks (a pod
   * created and deleted within the debounce window): its grace runs from now at the latest.
   */
  GraceClocks sawNeeded(String key, Instant now) {
    Objects.requireNonNull(now, "now");
    Map<String, Instant> released = new HashMap<>(releasedSince);
    released.merge(key, now, (a, b) -> a.isAfter(b) ? a : b);
    return new GraceClocks(needed, released);
  }

  /** The keys to hold: those needed, and those released less than the grace ago. */
  Set<String> held() {
    Set<String> held = new TreeSet<>(needed);
    held.addAll(releasedSince.keySet());
    return held;
  }

  /** When the next released key expires, if any: the pair must be looked at then. */
  Optional<Instant> nextExpiry(Duration grace) {
    return releasedSince.values().stream().min(Instant::compareTo).map(since -> since.plus(grace));
  }

  boolean isEmpty() {
    return needed.isEmpty() && releasedSince.isEmpty();
  }
}
