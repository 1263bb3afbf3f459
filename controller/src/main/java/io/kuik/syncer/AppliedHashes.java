package io.kuik.syncer;

import java.util.HashMap;
import java.util.Map;

/**
 * The hash of the content last applied per pair, to skip applies that would change nothing ({@link
 * PairDecision#needsApply}). Kept apart from decision state: dropping it changes no outcome, only
 * the number of requests (the API server treats an identical apply as a no-op anyway). Not final: a
 * test replaces it with one that remembers nothing, to show exactly that.
 */
class AppliedHashes {

  private final Map<Pair, Long> applied = new HashMap<>();

  /** The hash of what this process last applied to the pair; null when it applied none. */
  Long last(Pair pair) {
    return applied.get(pair);
  }

  void applied(Pair pair, long hash) {
    applied.put(pair, hash);
  }

  void forget(Pair pair) {
    applied.remove(pair);
  }
}
