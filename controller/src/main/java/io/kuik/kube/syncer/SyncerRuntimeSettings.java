package io.kuik.kube.syncer;

import io.kuik.model.WriteBounds;
import io.kuik.syncer.SyncerSettings;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Everything the production syncer process needs beyond the core's own {@link SyncerSettings}.
 *
 * @param healthPort port of /healthz, /readyz and /metrics; zero picks a free one
 * @param bounds the admission policies and bindings that bound the writes
 * @param trials how credentials are tried on their registries
 * @param plugins where the credential provider plugins are and how they are run
 */
public record SyncerRuntimeSettings(
    SyncerSettings syncer,
    LeaseSettings lease,
    int healthPort,
    Bounds bounds,
    Trials trials,
    Plugins plugins) {

  /** With the default credential trials (10 s per request, HTTPS but for loopback registries). */
  public SyncerRuntimeSettings(
      SyncerSettings syncer, LeaseSettings lease, int healthPort, Bounds bounds) {
    this(syncer, lease, healthPort, bounds, Trials.defaults(), Plugins.defaults());
  }

  /** With the default plugin runs. */
  public SyncerRuntimeSettings(
      SyncerSettings syncer, LeaseSettings lease, int healthPort, Bounds bounds, Trials trials) {
    this(syncer, lease, healthPort, bounds, trials, Plugins.defaults());
  }

  /**
   * How credential provider plugins run (docs/behaviour.md#provider-credentials): the executable
   * {@code <directory>/<name>}, at most {@code concurrency} at once, each killed past {@code
   * timeout} or {@code maxOutput} bytes on stdout.
   */
  public record Plugins(
      java.nio.file.Path directory, Duration timeout, int concurrency, long maxOutput) {

    /** Where the chart puts them: an image volume or an emptyDir, mounted there. */
    public static final String DEFAULT_DIRECTORY = "/kuik/plugins";

    public Plugins {
      Objects.requireNonNull(directory, "directory");
      Objects.requireNonNull(timeout, "timeout");
      if ((timeout.isNegative() || timeout.isZero()) || concurrency < 1 || maxOutput < 1) {
        throw new IllegalArgumentException(
            "a plugin run needs a positive timeout, concurrency and output limit");
      }
    }

    public static Plugins defaults() {
      return new Plugins(
          java.nio.file.Path.of(DEFAULT_DIRECTORY),
          ProviderPlugins.DEFAULT_TIMEOUT,
          ProviderPlugins.DEFAULT_CONCURRENCY,
          ProviderPlugins.DEFAULT_MAX_OUTPUT);
    }
  }

  /**
   * How each credential is tried (docs/behaviour.md#credentials-tried-ahead-of-time): each request
   * of the token flow gives up after {@code timeout}; {@code insecureRegistries} are tried over
   * plain HTTP, as the webhook probes them.
   */
  public record Trials(Duration timeout, java.util.Set<String> insecureRegistries) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    public Trials {
      Objects.requireNonNull(timeout, "timeout");
      insecureRegistries = java.util.Set.copyOf(insecureRegistries);
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("the credential trial timeout must be positive");
      }
    }

    public static Trials defaults() {
      return new Trials(DEFAULT_TIMEOUT, java.util.Set.of());
    }
  }

  /**
   * The ValidatingAdmissionPolicies, each with its binding, that bound the syncer's writes, watched
   * by name: the syncer writes only while every one is in place (docs/behaviour.md#writing-only-
   * under-the-policy).
   *
   * @param secrets the one that bounds the Secret writes (the chart's {@code
   *     <fullname>-pull-secrets})
   * @param podGates the one that bounds the pod patches of pull secret first ({@code
   *     <fullname>-pod-gates}); null when the syncer releases no gate
   */
  public record Bounds(WriteBounds.Policy secrets, WriteBounds.Policy podGates) {

    /** The names the chart gives them for the release {@code kuik}. */
    public static final String DEFAULT_NAME = "kuik-pull-secrets";

    public static final String POD_GATES = "kuik-pod-gates";

    public Bounds {
      Objects.requireNonNull(secrets, "secrets");
    }

    /** The chart's names for the release {@code kuik}, without pull secret first. */
    public static Bounds defaults() {
      return new Bounds(new WriteBounds.Policy(DEFAULT_NAME, DEFAULT_NAME), null);
    }

    /** Every policy to watch, the Secrets' first. */
    public List<WriteBounds.Policy> policies() {
      return podGates == null ? List.of(secrets) : List.of(secrets, podGates);
    }
  }

  public SyncerRuntimeSettings {
    Objects.requireNonNull(syncer, "syncer");
    Objects.requireNonNull(lease, "lease");
    Objects.requireNonNull(bounds, "bounds");
    Objects.requireNonNull(trials, "trials");
    Objects.requireNonNull(plugins, "plugins");
    if (healthPort < 0 || healthPort > 65535) {
      throw new IllegalArgumentException("the health port must be 0 to 65535, got " + healthPort);
    }
  }
}
