package io.kuik.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kuik.kube.ApiClientMetrics;
import io.kuik.kube.ExitReason;
import io.kuik.kube.syncer.SyncerRuntime;
import io.kuik.kube.syncer.SyncerRuntimeSettings;
import io.kuik.model.Dns1123;
import io.kuik.model.Durations;
import io.kuik.model.WriteBounds;
import io.kuik.syncer.SyncerSettings;
import io.kuik.syncer.Targeting;
import java.io.IOException;
import java.time.Duration;
import java.util.logging.Logger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code kuik syncer}: the secret-syncer process (docs/architecture.md#executors). Every flag has
 * an environment variable fallback and a default; the Helm chart passes them all
 * (chart/templates/_helpers.tpl).
 */
@Command(
    name = "syncer",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Writes the kuik-inject-<kind>-<name> pull Secrets that pods rewritten by an ImageAlternative"
          + " or ImageMirror need, with server-side apply, in the namespaces that need them.",
      "Every flag falls back to the environment variable named in its description, then to its"
          + " default. Durations are a whole number and one unit: ms, s, m or h (500ms, 15m).",
      ""
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:stopped (SIGTERM)",
      "1:failed to start, or lost the lease (Kubernetes restarts it as a standby)",
      "2:bad command line"
    })
public final class SyncerCommand implements KuikSubcommand {

  private static final Logger LOG = Logger.getLogger(SyncerCommand.class.getName());

  @Spec CommandSpec spec;

  @Option(
      names = "--cluster-resource-namespace",
      paramLabel = "<namespace>",
      defaultValue = "${env:KUIK_CLUSTER_RESOURCE_NAMESPACE}",
      description = {
        "Namespace of kuik's install, where the secretRef Secrets live: the only namespace whose"
            + " Secrets the syncer reads. Also names this instance for namespace targeting"
            + " (kuik.enix.io/pull-secrets-instance) and holds the leader-election Lease.",
        "Env: KUIK_CLUSTER_RESOURCE_NAMESPACE. Default: the namespace of the pod's"
            + " ServiceAccount; required outside a pod."
      })
  String clusterResourceNamespace;

  @Option(
      names = "--grace-period",
      paramLabel = "<duration>",
      converter = DurationConverter.class,
      defaultValue = "${env:KUIK_GRACE_PERIOD:-15m}",
      description = {
        "How long an OnFailure entry stays in its Secret once no live pod uses it.",
        "Env: KUIK_GRACE_PERIOD. Default: ${DEFAULT-VALUE}."
      })
  Duration gracePeriod;

  @Option(
      names = "--resync-period",
      paramLabel = "<duration>",
      converter = DurationConverter.class,
      defaultValue = "${env:KUIK_RESYNC_PERIOD:-10m}",
      description = {
        "How often every pair is applied again, bypassing the content hash: restores a Secret"
            + " someone deleted. 0s never resyncs.",
        "Env: KUIK_RESYNC_PERIOD. Default: ${DEFAULT-VALUE}."
      })
  Duration resyncPeriod;

  @Option(
      names = "--debounce",
      paramLabel = "<duration>",
      converter = DurationConverter.class,
      defaultValue = "${env:KUIK_DEBOUNCE:-500ms}",
      description = {
        "Events for one pair within this window collapse into one reconcile.",
        "Env: KUIK_DEBOUNCE. Default: ${DEFAULT-VALUE}."
      })
  Duration debounce;

  @Option(
      names = "--namespaces-by-default",
      paramLabel = "<true|false>",
      arity = "1",
      defaultValue = "${env:KUIK_NAMESPACES_BY_DEFAULT:-true}",
      description = {
        "Serve namespaces that carry neither kuik.enix.io/pull-secrets-override nor"
            + " kuik.enix.io/pull-secrets-instance.",
        "Env: KUIK_NAMESPACES_BY_DEFAULT. Default: ${DEFAULT-VALUE}."
      })
  boolean namespacesByDefault;

  @Option(
      names = "--api-qps",
      paramLabel = "<requests/s>",
      defaultValue = "${env:KUIK_API_QPS:-20}",
      description = {
        "Rate limit of the syncer's writes (Secret applies, status writes and Events), per"
            + " second: the one limit they all share.",
        "Env: KUIK_API_QPS. Default: ${DEFAULT-VALUE}."
      })
  double apiQps;

  @Option(
      names = "--resync-share",
      paramLabel = "<share>",
      defaultValue = "${env:KUIK_RESYNC_SHARE:-0.5}",
      description = {
        "Share of --api-qps the resync may take (more than 0, at most 1); event work always has"
            + " the rest. When every pair cannot be applied within --resync-period at that"
            + " rate, the period is stretched, with a log line and"
            + " kuik_syncer_resync_effective_period_seconds.",
        "Env: KUIK_RESYNC_SHARE. Default: ${DEFAULT-VALUE}."
      })
  double resyncShare;

  @Option(
      names = "--api-burst",
      paramLabel = "<requests>",
      defaultValue = "${env:KUIK_API_BURST:-50}",
      description = {
        "Writes allowed at once above --api-qps.",
        "Env: KUIK_API_BURST. Default: ${DEFAULT-VALUE}."
      })
  int apiBurst;

  @Option(
      names = "--max-applies-in-flight",
      paramLabel = "<applies>",
      defaultValue = "${env:KUIK_MAX_APPLIES_IN_FLIGHT:-8}",
      description = {
        "Secret applies sent and not yet answered, at most: with several in flight, --api-qps and"
            + " not the API server's round trip bounds how fast Secrets are written. One pair"
            + " never has two.",
        "Env: KUIK_MAX_APPLIES_IN_FLIGHT. Default: ${DEFAULT-VALUE}."
      })
  int maxAppliesInFlight;

  @Option(
      names = "--release-gates",
      paramLabel = "<true|false>",
      arity = "1",
      defaultValue = "${env:KUIK_RELEASE_GATES:-false}",
      description = {
        "Pull secret first: remove the scheduling gate kuik.enix.io/pull-secret, which the webhook"
            + " adds, from a rewritten pod once its Secrets hold what it needs. Needs patch on"
            + " pods (the chart's pullSecretFirst.enabled grants it).",
        "Env: KUIK_RELEASE_GATES. Default: ${DEFAULT-VALUE}."
      })
  boolean releaseGates;

  @Option(
      names = "--leader-elect",
      paramLabel = "<true|false>",
      arity = "1",
      defaultValue = "${env:KUIK_LEADER_ELECT:-true}",
      description = {
        "Elect one writer among the replicas with a Lease in the cluster resource namespace;"
            + " the others stand by, warm. false: write at once (run one replica only).",
        "Env: KUIK_LEADER_ELECT. Default: ${DEFAULT-VALUE}."
      })
  boolean leaderElect;

  @Option(
      names = "--health-port",
      paramLabel = "<port>",
      defaultValue = "${env:KUIK_HEALTH_PORT:-8080}",
      description = {
        "Port of /healthz (alive), /readyz (informers synced and the admission policy in"
            + " place; a standby is ready too) and /metrics (Prometheus).",
        "Env: KUIK_HEALTH_PORT. Default: ${DEFAULT-VALUE}."
      })
  int healthPort;

  @Option(
      names = "--admission-policy",
      paramLabel = "<name>",
      defaultValue =
          "${env:KUIK_ADMISSION_POLICY:-" + SyncerRuntimeSettings.Bounds.DEFAULT_NAME + "}",
      description = {
        "The ValidatingAdmissionPolicy that bounds the syncer's Secret writes (the chart's"
            + " <fullname>-pull-secrets). The syncer writes nothing while it or its binding is"
            + " missing: /readyz fails, a log line and kuik_syncer_admission_policy_in_place say"
            + " so. Watched by name (list and watch with the field selector metadata.name); the"
            + " syncer needs nothing else of it.",
        "Env: KUIK_ADMISSION_POLICY. Default: ${DEFAULT-VALUE}."
      })
  String admissionPolicy;

  @Option(
      names = "--admission-policy-binding",
      paramLabel = "<name>",
      defaultValue =
          "${env:KUIK_ADMISSION_POLICY_BINDING:-" + SyncerRuntimeSettings.Bounds.DEFAULT_NAME + "}",
      description = {
        "The ValidatingAdmissionPolicyBinding of --admission-policy, which must bind it with Deny.",
        "Env: KUIK_ADMISSION_POLICY_BINDING. Default: ${DEFAULT-VALUE}."
      })
  String admissionPolicyBinding;

  @Mixin PodGatesPolicyOptions podGates;

  @Mixin ExcludedNamespacesOption excluded;

  @Mixin LeaseOptions lease;

  @Option(
      names = "--log-format",
      paramLabel = "<json|text>",
      defaultValue = "${env:KUIK_LOG_FORMAT:-json}",
      description = {
        "One event per line, as ECS JSON (@timestamp, log.level, log.logger, message, ...) or"
            + " text.",
        "Env: KUIK_LOG_FORMAT. Default: ${DEFAULT-VALUE}."
      })
  LogFormat logFormat;

  @Option(
      names = "--log-level",
      paramLabel = "<error|warn|info|debug|trace>",
      defaultValue = "${env:KUIK_LOG_LEVEL:-info}",
      description = {
        "The lowest level logged. debug adds one line per decision; never a credential.",
        "Env: KUIK_LOG_LEVEL. Default: ${DEFAULT-VALUE}."
      })
  LogLevel logLevel;

  @Option(
      names = "--credential-trial-timeout",
      paramLabel = "<duration>",
      converter = DurationConverter.class,
      defaultValue = "${env:KUIK_CREDENTIAL_TRIAL_TIMEOUT:-10s}",
      description = {
        "How long each request of a credential's trial waits for its registry (the /v2/"
            + " challenge, then Basic or the token realm). Each injecting entry's credential is"
            + " tried when it changes and at most once per --resync-period; the answer is the"
            + " routing resource's condition CredentialsAccepted.",
        "Env: KUIK_CREDENTIAL_TRIAL_TIMEOUT. Default: ${DEFAULT-VALUE}."
      })
  Duration credentialTrialTimeout;

  @Option(
      names = "--insecure-registries",
      paramLabel = "<host[:port],...>",
      defaultValue = "${env:KUIK_INSECURE_REGISTRIES:-}",
      description = {
        "Registries whose credentials are tried over plain HTTP instead of HTTPS,"
            + " comma-separated, written as in image references (registry.local:5000); the"
            + " webhook's list. Loopback registries always are.",
        "Env: KUIK_INSECURE_REGISTRIES. Default: none."
      })
  String insecureRegistries;

  @Mixin ProviderOptions providers = new ProviderOptions();

  private final UntilExit<SyncerRuntime> process = new UntilExit<>();

  @Override
  public Integer call() throws Exception {
    SyncerRuntimeSettings settings = settings();
    LogSetup.configure(logFormat, logLevel);
    LOG.info(describe(settings));
    ClusterConnection connection;
    try {
      connection = ClusterConnection.resolve();
    } catch (ClusterConnection.Unusable unusable) {
      LOG.severe("cannot start the secret-syncer: " + unusable.getMessage());
      return ExitReason.STARTUP_FAILED.exitCode();
    }
    if (connection.noCluster("syncer").isPresent()) {
      LOG.severe(connection.noCluster("syncer").get());
      return ExitReason.STARTUP_FAILED.exitCode();
    }
    LOG.info("talking to the " + connection.describe());
    ApiClientMetrics apiMetrics = new ApiClientMetrics();
    try (KubernetesClient client =
        new KubernetesClientBuilder()
            .withConfig(connection.config())
            .withHttpClientBuilderConsumer(apiMetrics::instrument)
            .build()) {
      SyncerRuntime runtime;
      try {
        runtime = SyncerRuntime.start(settings, client);
      } catch (IOException cannotServe) {
        LOG.severe("cannot start the secret-syncer: " + LogLine.describe(cannotServe));
        return ExitReason.STARTUP_FAILED.exitCode();
      }
      apiMetrics.registerIn(runtime.metricsRegistry());
      return process.run(runtime);
    }
  }

  /** Ends a running {@code call()} as SIGTERM would; for running the command in-process. */
  public void stop() {
    process.stop();
  }

  /** The running process, if any: for tests that check who writes. */
  public SyncerRuntime runtime() {
    return process.running();
  }

  /**
   * What the parsed command line tells the process (the simulator runs it from the chart's own
   * arguments).
   */
  public SyncerRuntimeSettings settings() {
    return settings(java.nio.file.Files::readString);
  }

  /** How a file a flag names is read: from the disk, or from the simulated pod's mounts. */
  public interface MountedFiles {
    String read(java.nio.file.Path path) throws java.io.IOException;
  }

  /** The settings, each file a flag names read by {@code files}. */
  public SyncerRuntimeSettings settings(MountedFiles files) {
    String namespace =
        ClusterResourceNamespace.resolve(
                clusterResourceNamespace, ClusterResourceNamespace.SERVICE_ACCOUNT_NAMESPACE)
            .orElseThrow(
                () ->
                    new ParameterException(
                        spec.commandLine(),
                        "Missing the cluster resource namespace: pass"
                            + " --cluster-resource-namespace=<kuik's install namespace> or set"
                            + " KUIK_CLUSTER_RESOURCE_NAMESPACE"));
    if (!Dns1123.isLabel(namespace)) {
      throw new ParameterException(
          spec.commandLine(),
          "Invalid cluster resource namespace '" + namespace + "': not a namespace name");
    }
    // Checked here, in the flags' own words: the settings below would name their fields.
    if (!(apiQps > 0) || Double.isInfinite(apiQps)) {
      throw new ParameterException(
          spec.commandLine(),
          "Invalid --api-qps " + apiQps + ": give a positive number of writes per second, e.g. 20");
    }
    if (!(resyncShare > 0 && resyncShare <= 1)) {
      throw new ParameterException(
          spec.commandLine(),
          "Invalid --resync-share "
              + resyncShare
              + ": give a share of --api-qps above 0 and at most 1, e.g. 0.5");
    }
    if (apiBurst < 1) {
      throw new ParameterException(
          spec.commandLine(),
          "Invalid --api-burst " + apiBurst + ": give at least 1 write, e.g. 50");
    }
    if (maxAppliesInFlight < 1) {
      throw new ParameterException(
          spec.commandLine(),
          "Invalid --max-applies-in-flight "
              + maxAppliesInFlight
              + ": give at least 1 apply, e.g. 8");
    }
    checkPort("--health-port", healthPort);
    for (String[] name :
        new String[][] {
          {"--admission-policy", admissionPolicy},
          {"--admission-policy-binding", admissionPolicyBinding}
        }) {
      if (!Dns1123.isSubdomain(name[1])) {
        throw new ParameterException(
            spec.commandLine(),
            "Invalid "
                + name[0]
                + " '"
                + name[1]
                + "': not an object name, e.g. kuik-pull-secrets");
      }
    }
    try {
      SyncerSettings defaults = SyncerSettings.defaults(namespace);
      SyncerSettings syncer =
          new SyncerSettings(
                  namespace,
                  gracePeriod,
                  debounce,
                  defaults.retryBase(),
                  defaults.retryCap(),
                  new Targeting(namespace, namespacesByDefault, excluded.served(namespace, spec)))
              // The core paces every write at the API rate and spreads each resync over its
              // period, so a restart or resync of many pairs never bursts (the benchmark's case).
              .withWriteLimit(apiQps, apiBurst)
              .withResyncPeriod(resyncPeriod)
              .withResyncShare(resyncShare)
              .withMaxInFlight(maxAppliesInFlight)
              .withReleasesGates(releaseGates)
              .withProviders(providers.settings(spec, files));
      return new SyncerRuntimeSettings(
          syncer,
          lease.settings(leaderElect, spec),
          healthPort,
          new SyncerRuntimeSettings.Bounds(
              new WriteBounds.Policy(admissionPolicy, admissionPolicyBinding),
              releaseGates ? podGates.policy(spec) : null),
          new SyncerRuntimeSettings.Trials(credentialTrialTimeout, insecureRegistries()),
          providers.plugins(spec));
    } catch (IllegalArgumentException invalid) {
      throw new ParameterException(spec.commandLine(), "Invalid setting: " + invalid.getMessage());
    }
  }

  private java.util.Set<String> insecureRegistries() {
    try {
      return InsecureRegistries.parse(insecureRegistries);
    } catch (IllegalArgumentException invalid) {
      throw new ParameterException(spec.commandLine(), invalid.getMessage());
    }
  }

  private void checkPort(String flag, int value) {
    if (value < 0 || value > 65535) {
      throw new ParameterException(
          spec.commandLine(), "Invalid " + flag + " " + value + ": a port is 0 to 65535");
    }
  }

  /** The settings in one short line: what an operator compares with the chart's values. */
  static String describe(SyncerRuntimeSettings s) {
    SyncerSettings syncer = s.syncer();
    return "starting the secret-syncer in "
        + syncer.clusterResourceNamespace()
        + ": grace "
        + Durations.text(syncer.grace())
        + ", resync "
        + Durations.text(syncer.resyncPeriod())
        + ", debounce "
        + Durations.text(syncer.debounce())
        + ", "
        + String.format(java.util.Locale.ROOT, "%.4g", syncer.writeQps()).replaceAll("\\.?0+$", "")
        + " writes/s (burst "
        + syncer.writeBurst()
        + "), "
        + (s.lease().enabled() ? "lease " + s.lease().name() : "no leader election")
        + ", "
        + String.join(
            " and ", s.bounds().policies().stream().map(WriteBounds.Policy::policy).toList())
        + (syncer.targeting().namespacesByDefault() ? "" : ", labelled namespaces only")
        + ", never in "
        + String.join(", ", syncer.targeting().served().neverServed())
        + ProviderOptions.describe(syncer.providers());
  }
}
