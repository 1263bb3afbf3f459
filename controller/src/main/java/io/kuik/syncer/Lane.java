package io.kuik.syncer;

/**
 * Why a pair waits in the work queue, in the order the core serves them: event work first, so that
 * a new rewrite never waits behind a pass over every pair (under the write limit a pass over
 * thousands of pairs takes minutes).
 */
public enum Lane {
  /**
   * An event asked for it: a rewrite, a changed resource, namespace or source, a retry, a grace.
   */
  EVENT,
  /** The start's pass over every pair the informers show. */
  START,
  /** A resync: the pair's forced re-apply, at its slot in the resync window. */
  RESYNC;

  /** The label value of this lane in metrics. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
