package io.kuik.sim.world.kubelet;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The kubelet's image pull back-off (client-go's {@code flowcontrol.Backoff}, without jitter): per
 * key, the first failure waits {@value #INITIAL_SECONDS} s, each later one twice as long, at most
 * {@value #MAX_SECONDS} s; a key left alone for twice the maximum starts again from the initial
 * wait. The kubelet keys it by pod UID and image, so two pods, or two images of one pod, back off
 * independently.
 */
final class ImageBackoff {

  static final long INITIAL_SECONDS = 10;
  static final long MAX_SECONDS = 300;
  static final Duration INITIAL = Duration.ofSeconds(INITIAL_SECONDS);
  static final Duration MAX = Duration.ofSeconds(MAX_SECONDS);

  private record Entry(Duration backoff, Instant lastUpdate) {}

  private final Map<String, Entry> entries = new HashMap<>();

  /** Whether a pull for {@code key} must still wait: less than its back-off since its failure. */
  boolean inBackoff(String key, Instant now) {
    Entry entry = entries.get(key);
    return entry != null
        && Duration.between(entry.lastUpdate(), now).compareTo(entry.backoff()) < 0;
  }

  /** Records a failure at {@code now} and returns how long the next pull must wait. */
  Duration next(String key, Instant now) {
    Entry entry = entries.get(key);
    Duration backoff;
    if (entry == null
        || Duration.between(entry.lastUpdate(), now).compareTo(MAX.multipliedBy(2)) > 0) {
      backoff = INITIAL;
    } else {
      Duration doubled = entry.backoff().multipliedBy(2);
      backoff = doubled.compareTo(MAX) > 0 ? MAX : doubled;
    }
    entries.put(key, new Entry(backoff, now));
    return backoff;
  }
}
