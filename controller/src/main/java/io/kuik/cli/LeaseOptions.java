package io.kuik.cli;

import io.kuik.kube.syncer.LeaseSettings;
import io.kuik.model.Dns1123;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The syncer's leader election: the release's own Lease (the chart's {@code
 * <fullname>-secret-syncer}) and client-go's timings, which suit every cluster.
 */
final class LeaseOptions {

  @Option(
      names = "--lease-name",
      paramLabel = "<name>",
      defaultValue = "${env:KUIK_LEASE_NAME:-" + LeaseSettings.DEFAULT_NAME + "}",
      description = {
        "With --leader-elect: the Lease the replicas elect their leader on, in the cluster"
            + " resource namespace (the chart's <fullname>-secret-syncer, one per release).",
        "Env: KUIK_LEASE_NAME. Default: ${DEFAULT-VALUE}."
      })
  String name;

  @Option(
      names = "--lease-duration",
      paramLabel = "<duration>",
      converter = DurationConverter.class,
      defaultValue = "${env:KUIK_LEASE_DURATION:-15s}",
      description = {
        "How long a standby waits after the leader's last renewal before it takes over; longer"
            + " than --lease-renew-deadline.",
        "Env: KUIK_LEASE_DURATION. Default: ${DEFAULT-VALUE}."
      })
  Duration duration;

  @Option(
      names = "--lease-renew-deadline",
      paramLabel = "<duration>",
      converter = DurationConverter.class,
      defaultValue = "${env:KUIK_LEASE_RENEW_DEADLINE:-10s}",
      description = {
        "How long the leader keeps trying to renew before it stops writing and exits.",
        "Env: KUIK_LEASE_RENEW_DEADLINE. Default: ${DEFAULT-VALUE}."
      })
  Duration renewDeadline;

  @Option(
      names = "--lease-retry-period",
      paramLabel = "<duration>",
      converter = DurationConverter.class,
      defaultValue = "${env:KUIK_LEASE_RETRY_PERIOD:-2s}",
      description = {
        "How often candidates try to take the Lease and the leader renews it.",
        "Env: KUIK_LEASE_RETRY_PERIOD. Default: ${DEFAULT-VALUE}."
      })
  Duration retryPeriod;

  LeaseSettings settings(boolean enabled, CommandSpec spec) {
    if (!Dns1123.isSubdomain(name)) {
      throw new ParameterException(
          spec.commandLine(), "Invalid --lease-name '" + name + "': not an object name");
    }
    return new LeaseSettings(enabled, name, duration, renewDeadline, retryPeriod);
  }
}
