package io.kuik.syncer;

import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What the core remembers of each pair (docs/architecture.md#the-pair): whether this process wrote
 * its Secret, the grace clocks of its OnFailure entries, and the hash of what it last applied. All
 * of it is lost on a restart.
 */
final class PairMemory {

  private final Set<Pair> written = new HashSet<>();
  private final Map<Pair, GraceClocks> clocks = new HashMap<>();
  private final AppliedHashes hashes;

  PairMemory(AppliedHashes hashes) {
    this.hashes = hashes;
  }

  boolean written(Pair pair) {
    return written.contains(pair);
  }

  int writtenCount() {
    return written.size();
  }

  GraceClocks clocks(Pair pair) {
    return clocks.getOrDefault(pair, GraceClocks.NONE);
  }

  /** The pair's clocks after a look. */
  void look(Pair pair, GraceClocks after) {
    if (after.isEmpty()) {
      clocks.remove(pair);
    } else {
      clocks.put(pair, after);
    }
  }

  /** A pod that needed {@code key} of the pair was seen live until {@code now}. */
  void sawNeeded(Pair pair, String key, Instant now) {
    clocks.put(pair, clocks(pair).sawNeeded(key, now));
  }

  /** The hash of what this process last applied to the pair; null when none. */
  Long applied(Pair pair) {
    return hashes.last(pair);
  }

  /** The API server took the pair's apply of content hashing to {@code hash}. */
  void wrote(Pair pair, long hash) {
    written.add(pair);
    hashes.applied(pair, hash);
  }

  /** The pair's apply was refused: what the server holds is no longer known. */
  void refused(Pair pair) {
    hashes.forget(pair);
  }

  void forget(Pair pair) {
    written.remove(pair);
    clocks.remove(pair);
    hashes.forget(pair);
  }

  /** Forgets the written mark of every pair {@code gone} accepts (their resource or namespace). */
  void forgetWritten(Predicate<Pair> gone) {
    written.removeIf(gone);
  }
}
