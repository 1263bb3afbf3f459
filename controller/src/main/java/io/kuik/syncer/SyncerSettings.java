package io.kuik.syncer;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The syncer's settings, each with its documented default (docs/behaviour.md#releasing-credentials)
 * or the one docs/decisions/0004-syncer-core-choices.md chose.
 *
 * @param clusterResourceNamespace where the secretRef Secrets live (kuik's install namespace)
 * @param grace how long an OnFailure entry that no live pod uses stays (documented as 15 minutes)
 * @param debounce events for one pair within this window collapse into one reconcile
 * @param retryBase first retry delay after a failed write, doubled on each failure
 * @param retryCap the longest retry delay
 * @param targeting which namespaces this instance serves (docs/behaviour.md#namespace-targeting)
 * @param writeQps the one rate limit of the syncer's writes (applies, statuses and Events), a
 *     second ({@code --api-qps})
 * @param writeBurst writes that may go at once before the limit applies ({@code --api-burst})
 * @param resyncPeriod how often every pair is applied again, bypassing the applied-content hash
 *     (restores a Secret someone deleted): each pair owes a forced apply at a fixed slot (an offset
 *     from its name) in every period, so a resync is spread over it; zero: never
 * @param resyncShare the share of {@code writeQps} that the resync lane may take, in (0, 1]; the
 *     rest is always left to event work, and a resync that cannot apply every pair in its period at
 *     that share stretches the period (docs/decisions/0033-resync-share.md)
 * @param maxInFlight applies sent and not yet answered, at most: several in flight keep the write
 *     limit, not the API server's round trip, the bound on throughput
 *     (docs/decisions/0034-applies-in-flight.md)
 * @param releasesGates remove the pull-secret gate of a rewritten pod once its Secrets hold what it
 *     needs (the chart's {@code pullSecretFirst.enabled}, docs/decisions/0052-pull-secret-first.md)
 * @param providers the credential providers and the validity bound of their credentials
 *     (docs/behaviour.md#provider-credentials)
 */
public record SyncerSettings(
    String clusterResourceNamespace,
    Duration grace,
    Duration debounce,
    Duration retryBase,
    Duration retryCap,
    Targeting targeting,
    double writeQps,
    int writeBurst,
    Duration resyncPeriod,
    double resyncShare,
    int maxInFlight,
    boolean releasesGates,
    ProviderSettings providers) {

  public static final Duration DEFAULT_GRACE = Duration.ofMinutes(15);
  public static final Duration DEFAULT_DEBOUNCE = Duration.ofMillis(500);
  public static final Duration DEFAULT_RETRY_BASE = Duration.ofSeconds(1);
  public static final Duration DEFAULT_RETRY_CAP = Duration.ofMinutes(5);
  public static final double DEFAULT_WRITE_QPS = 20;
  public static final int DEFAULT_WRITE_BURST = 50;
  public static final Duration DEFAULT_RESYNC_PERIOD = Duration.ofMinutes(10);
  public static final double DEFAULT_RESYNC_SHARE = 0.5;
  public static final int DEFAULT_MAX_IN_FLIGHT = 8;

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
    if (!(writeQps > 0) || writeBurst < 1) {
      throw new IllegalArgumentException(
          "writeQps must be positive and writeBurst at least 1, got "
              + writeQps
              + "/"
              + writeBurst);
    }
    requirePositive(resyncPeriod, "resyncPeriod", true);
    if (!(resyncShare > 0 && resyncShare <= 1)) {
      throw new IllegalArgumentException(
          "resyncShare must be more than 0 and at most 1, got " + resyncShare);
    }
    if (maxInFlight < 1) {
      throw new IllegalArgumentException("maxInFlight must be at least 1, got " + maxInFlight);
    }
    Objects.requireNonNull(providers, "providers");
  }

  /** The default write limit, resync and applies in flight; no gate released. */
  public SyncerSettings(
      String clusterResourceNamespace,
      Duration grace,
      Duration debounce,
      Duration retryBase,
      Duration retryCap,
      Targeting targeting) {
    this(
        clusterResourceNamespace,
        grace,
        debounce,
        retryBase,
        retryCap,
        targeting,
        DEFAULT_WRITE_QPS,
        DEFAULT_WRITE_BURST,
        DEFAULT_RESYNC_PERIOD,
        DEFAULT_RESYNC_SHARE,
        DEFAULT_MAX_IN_FLIGHT,
        false,
        ProviderSettings.NONE);
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
    return edited(b -> b.grace = value);
  }

  public SyncerSettings withTargeting(Targeting value) {
    return edited(b -> b.targeting = value);
  }

  public SyncerSettings withWriteLimit(double qps, int burst) {
    return edited(
        b -> {
          b.writeQps = qps;
          b.writeBurst = burst;
        });
  }

  public SyncerSettings withResyncPeriod(Duration value) {
    return edited(b -> b.resyncPeriod = value);
  }

  public SyncerSettings withResyncShare(double value) {
    return edited(b -> b.resyncShare = value);
  }

  public SyncerSettings withMaxInFlight(int value) {
    return edited(b -> b.maxInFlight = value);
  }

  public SyncerSettings withReleasesGates(boolean value) {
    return edited(b -> b.releasesGates = value);
  }

  public SyncerSettings withProviders(ProviderSettings value) {
    return edited(b -> b.providers = value);
  }

  /** A copy with {@code change} made, checked as any new settings are. */
  private SyncerSettings edited(Consumer<Copy> change) {
    Copy copy = new Copy(this);
    change.accept(copy);
    return copy.settings();
  }

  /** The components, open for one change: each wither names only the component it sets. */
  private static final class Copy {
    private final String clusterResourceNamespace;
    private Duration grace;
    private final Duration debounce;
    private final Duration retryBase;
    private final Duration retryCap;
    private Targeting targeting;
    private double writeQps;
    private int writeBurst;
    private Duration resyncPeriod;
    private double resyncShare;
    private int maxInFlight;
    private boolean releasesGates;
    private ProviderSettings providers;

    Copy(SyncerSettings s) {
      clusterResourceNamespace = s.clusterResourceNamespace;
      grace = s.grace;
      debounce = s.debounce;
      retryBase = s.retryBase;
      retryCap = s.retryCap;
      targeting = s.targeting;
      writeQps = s.writeQps;
      writeBurst = s.writeBurst;
      resyncPeriod = s.resyncPeriod;
      resyncShare = s.resyncShare;
      maxInFlight = s.maxInFlight;
      releasesGates = s.releasesGates;
      providers = s.providers;
    }

    SyncerSettings settings() {
      return new SyncerSettings(
          clusterResourceNamespace,
          grace,
          debounce,
          retryBase,
          retryCap,
          targeting,
          writeQps,
          writeBurst,
          resyncPeriod,
          resyncShare,
          maxInFlight,
          releasesGates,
          providers);
    }
  }

  private static void requirePositive(Duration d, String name, boolean zeroAllowed) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || (!zeroAllowed && d.isZero())) {
      throw new IllegalArgumentException(
          name + " must be " + (zeroAllowed ? "zero or more" : "positive") + ", got " + d);
    }
  }
}
