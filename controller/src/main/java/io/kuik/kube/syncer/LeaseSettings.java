package io.kuik.kube.syncer;

import java.time.Duration;
import java.util.Objects;

/**
 * Leader election among the syncer's replicas, on a coordination.k8s.io Lease in the cluster
 * resource namespace. The durations follow client-go's rules and defaults: a standby takes over at
 * most {@code duration} after the leader stopped renewing; a leader that cannot renew within {@code
 * renewDeadline} stops writing; candidates retry every {@code retryPeriod} (with jitter).
 *
 * @param enabled off: this process writes as soon as its informers synced (one replica only)
 */
public record LeaseSettings(
    boolean enabled, String name, Duration duration, Duration renewDeadline, Duration retryPeriod) {

  public static final String DEFAULT_NAME = "kuik-secret-syncer";
  public static final Duration DEFAULT_DURATION = Duration.ofSeconds(15);
  public static final Duration DEFAULT_RENEW_DEADLINE = Duration.ofSeconds(10);
  public static final Duration DEFAULT_RETRY_PERIOD = Duration.ofSeconds(2);

  /** fabric8's (and client-go's) largest jitter on the retry period. */
  private static final double JITTER = 1.2;

  public LeaseSettings {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(renewDeadline, "renewDeadline");
    Objects.requireNonNull(retryPeriod, "retryPeriod");
    if (enabled) {
      if (retryPeriod.isZero() || retryPeriod.isNegative()) {
        throw new IllegalArgumentException("the lease retry period must be positive");
      }
      if (duration.compareTo(renewDeadline) <= 0) {
        throw new IllegalArgumentException(
            "the lease duration ("
                + duration
                + ") must be longer than the renew deadline ("
                + renewDeadline
                + "), or two leaders could write at once");
      }
      if (renewDeadline.toMillis() <= retryPeriod.toMillis() * JITTER) {
        throw new IllegalArgumentException(
            "the renew deadline ("
                + renewDeadline
                + ") must be longer than 1.2 × the retry period ("
                + retryPeriod
                + "), or a leader would give up before its first retry");
      }
    }
  }

  public static LeaseSettings defaults(boolean enabled) {
    return new LeaseSettings(
        enabled, DEFAULT_NAME, DEFAULT_DURATION, DEFAULT_RENEW_DEADLINE, DEFAULT_RETRY_PERIOD);
  }
}
