package io.kuik.sim.explore;

import io.kuik.sim.dsl.KuikWorld;
import java.time.Duration;

/**
 * The explorer's numbers in one place: the longest fault windows it opens, and what the checkers
 * derive from them. The checkers never read the product's settings: the grace is the documented
 * one, and the retry cap and debounce are the documented behaviour's numbers, given here again, so
 * that a syncer whose defaults drift is judged against the documentation, not against itself.
 *
 * <p>The slack is how late the syncer may honestly learn of a change under these faults: a resync
 * period (a Secret deleted by a person), the retry cap (a write refused during an outage), the
 * three fault windows back to back (a drop, a delay and an outage may overlap), and a margin for
 * the informers' relist backoff and the debounce.
 */
public final class Bounds {

  /**
   * How long an OnFailure entry no live pod uses stays: the 15 minutes of kube-image-keeper's
   * documentation (injected pull secrets, "When a credential is no longer needed";
   * https://github.com/enix/kube-image-keeper).
   */
  public static final Duration DOCUMENTED_GRACE = Duration.ofMinutes(15);

  /**
   * The longest wait between two attempts of a refused write
   * (docs/decisions/0004-syncer-core-choices.md).
   */
  public static final Duration RETRY_CAP = Duration.ofMinutes(5);

  /** Events for one pair collapse within "a short debounce window": half a second at most. */
  public static final Duration DEBOUNCE = Duration.ofMillis(500);

  public static final Duration MAX_FAULT_WINDOW = Duration.ofMinutes(3);

  public static final Duration MARGIN = Duration.ofMinutes(2);

  public static final Duration SLACK =
      KuikWorld.RESYNC_PERIOD.plus(RETRY_CAP).plus(MAX_FAULT_WINDOW.multipliedBy(3)).plus(MARGIN);

  /** How long a lost watch event may leave the syncer's view stale: a fault window and a minute. */
  public static final Duration STALENESS = MAX_FAULT_WINDOW.plusMinutes(1);

  /**
   * How long an undisturbed syncer may take to hold its writes once its admission policy is
   * deleted: the policy watch's event, delivered at once on the simulated API server, and a margin.
   */
  public static final Duration HOLD_DELAY = Duration.ofSeconds(5);

  /** How long after a fault ends the syncer's view may still be stale: its relist, and a margin. */
  public static final Duration RELIST = Duration.ofMinutes(1);

  /**
   * How long after a fault ends the syncer may still act on a stale view or retry a refused write:
   * the retry cap and the relist.
   */
  public static final Duration AFTERMATH = RETRY_CAP.plus(RELIST);

  /** How late after the grace an undisturbed syncer may take a key out: debounce and delivery. */
  public static final Duration GRACE_END_MARGIN = Duration.ofMinutes(1);

  /**
   * The final phase after every fault healed: debounce + the retry cap + one resync period + the
   * longest outage still running + a margin.
   */
  public static final Duration LIVENESS_PHASE =
      DEBOUNCE.plus(RETRY_CAP).plus(KuikWorld.RESYNC_PERIOD).plus(MAX_FAULT_WINDOW).plus(MARGIN);

  /**
   * The explorer's provider tokens: short, so that each run sees several refreshes, and longer than
   * twice the bound and a fault window, so that an outage the explorer opens is shorter than the
   * margin between a refresh (at half) and the bound.
   */
  public static final Duration PROVIDER_TOKENS = Duration.ofMinutes(40);

  /** The explorer's minValidity (its syncer's setting, kept here as the checker's too). */
  public static final Duration PROVIDER_MIN_VALIDITY = Duration.ofMinutes(5);

  /** How much sooner than the bound a credential leaves the Secrets, as documented. */
  public static final Duration PROVIDER_WRITE_LEAD = Duration.ofMinutes(1);

  private Bounds() {}
}
