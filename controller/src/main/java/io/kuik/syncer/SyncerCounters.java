package io.kuik.syncer;

import io.kuik.model.TrialVerdict;
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
  long credentialTrialsSent;
  private final long[] credentialTrials = new long[TrialVerdict.Outcome.values().length];
  private final long[] claimsNotRecognized = new long[Claims.Why.values().length];
  private final Map<String, Long> mints = new java.util.TreeMap<>();

  void claimNotRecognized(Claims.Why why) {
    claimsNotRecognized[why.ordinal()]++;
  }

  void credentialTrialAnswered(TrialVerdict.Outcome outcome) {
    credentialTrials[outcome.ordinal()]++;
  }

  void mintAnswered(String provider, String result) {
    mints.merge(provider + "|" + result, 1L, Long::sum);
  }

  /**
   * Runs of each provider's plugin answered, by {@code provider|result}: {@code minted}, or the
   * failure's label ({@link io.kuik.model.MintResult.Failure#label()}).
   */
  public Map<String, Long> mints() {
    return java.util.Collections.unmodifiableMap(mints);
  }

  /** Credential trials sent to registries (docs/behaviour.md#credentials-tried-ahead-of-time). */
  public long credentialTrialsSent() {
    return credentialTrialsSent;
  }

  /**
   * Credential trials answered, by result ({@code accepted}, {@code refused}, {@code unreachable}):
   * every result, zero included.
   */
  public Map<String, Long> credentialTrials() {
    Map<String, Long> byResult = new LinkedHashMap<>();
    for (TrialVerdict.Outcome outcome : TrialVerdict.Outcome.values()) {
      byResult.put(
          outcome.name().toLowerCase(java.util.Locale.ROOT), credentialTrials[outcome.ordinal()]);
    }
    return byResult;
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
