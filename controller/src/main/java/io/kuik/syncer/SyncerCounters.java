package io.kuik.syncer;

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
}
