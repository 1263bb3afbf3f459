package io.kuik.syncer;

import java.time.Duration;
import java.util.Objects;

/**
 * The syncer's settings, each with the default the seed documents or DESIGN.md chose.
 *
 * @param clusterResourceNamespace where the secretRef Secrets live (kuik's install namespace)
 * @param grace how long an OnFailure entry that no live pod uses stays (the seed's 15 minutes)
 * @param debounce events for one pair within this window collapse into one reconcile
 * @param retryBase first retry delay after a failed write, doubled on each failure
 * @param retryCap the longest retry delay
 * @param targeting which namespaces this instance serves (namespace-targeting.txt)
 */
public record SyncerSettings(
    String clusterResourceNamespace,
    Duration grace,
    Duration debounce,
    Duration retryBase,
    Duration retryCap,
    Targeting targeting) {

  public static final Duration DEFAULT_GRACE = Duration.ofMinutes(15);
  public static final Duration DEFAULT_DEBOUNCE = Duration.ofMillis(500);
  public static final Duration DEFAULT_RETRY_BASE = Duration.ofSeconds(1);
  public static final Duration DEFAULT_RETRY_CAP = Duration.ofMinutes(5);

  public SyncerSettings {
    Objects.requireNonNull(clusterResourceNamespace, "clusterResourceNamespace");
    Objects.requireNonNull(targeting, "targeting");
    requirePositive(grace, "grace", true);
    requirePositive(debounce, "debounce", true);
    requirePositive(retryBase, "retryBase", false);
    requirePositive(retryCap, "retryCap", false);
    if (retryCap.compareTo(retryBase) < 0) {
      throw new IllegalArgumentException("retryCap must not be shorter than retryBase");
    }
  }

  /** The defaults, for an instance installed in {@code clusterResourceNamespace}. */
  public static SyncerSettings defaults(String clusterResourceNamespace) {
    return new SyncerSettings(
        clusterResourceNamespace,
        DEFAULT_GRACE,
        DEFAULT_DEBOUNCE,
        DEFAULT_RETRY_BASE,
        DEFAULT_RETRY_CAP,
        new Targeting(clusterResourceNamespace, true));
  }

  public SyncerSettings withGrace(Duration value) {
    return new SyncerSettings(
        clusterResourceNamespace, value, debounce, retryBase, retryCap, targeting);
  }

  public SyncerSettings withTargeting(Targeting value) {
    return new SyncerSettings(
        clusterResourceNamespace, grace, debounce, retryBase, retryCap, value);
  }

  private static void requirePositive(Duration d, String name, boolean zeroAllowed) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || (!zeroAllowed && d.isZero())) {
      throw new IllegalArgumentException(
          name + " must be " + (zeroAllowed ? "zero or more" : "positive") + ", got " + d);
    }
  }
}
