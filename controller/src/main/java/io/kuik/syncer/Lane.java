package io.kuik.syncer;

/**
 * Why a pair waits in the work queue, most urgent first: a pair queued for two reasons waits in the
 * more urgent lane. The core serves event work first, so that a new rewrite never waits behind a
 * pass over every pair (under the write limit a pass over thousands of pairs takes minutes); then
 * resync slots, within the resync's share of the budget; then the start's pass, with the rest.
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
