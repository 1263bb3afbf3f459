package io.kuik.syncer;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the syncer has done since it started, for metrics and benchmarks. Plain counters: the core
 * runs on one thread, and a driver that exports them reads them on that thread.
 */
public final class SyncerCounters {
  long reconciles;
  long appliesSent;
  long appliesSkipped;
  long applyFailures;
  long writesDeferred;
  long statusWrites;
  long statusWriteFailures;
  private final long[] claimsNotRecognized = new long[Claims.Why.values().length];

  void claimNotRecognized(Claims.Why why) {
    claimsNotRecognized[why.ordinal()]++;
  }

  public long reconciles() {
    return reconciles;
  }

  /** Server-side applies sent, successful or not. */
  public long appliesSent() {
    return appliesSent;
  }

  /** Applies not sent because the pair's content hash had not changed. */
  public long appliesSkipped() {
    return appliesSkipped;
  }

  public long applyFailures() {
    return applyFailures;
  }

  /** Pairs put back in the queue because the write limit had no token left for them. */
  public long writesDeferred() {
    return writesDeferred;
  }

  /** Status writes of routing resources sent, successful or not. */
  public long statusWrites() {
    return statusWrites;
  }

  /** Status writes the API server did not take (or the executor did not send). */
  public long statusWriteFailures() {
    return statusWriteFailures;
  }

  /**
   * Pods whose claim of a rewrite counts for nothing (docs/behaviour.md#which-rewrites-count), each
   * once, by the reason of its first claim: every reason, zero included.
   */
  public Map<String, Long> rewritesNotRecognized() {
    Map<String, Long> byReason = new LinkedHashMap<>();
    for (Claims.Why why : Claims.Why.values()) {
      byReason.put(why.label(), claimsNotRecognized[why.ordinal()]);
    }
    return byReason;
  }
}
