package io.kuik.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kuik.kube.ApiClientMetrics;
import io.kuik.kube.ExitReason;
import io.kuik.kube.webhook.WebhookRuntime;
import io.kuik.kube.webhook.WebhookRuntimeSettings;
import io.kuik.model.Dns1123;
import io.kuik.model.Durations;
import io.kuik.webhook.ProberSettings;
import io.kuik.webhook.WebhookServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Set;
import java.util.logging.Logger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code kuik webhook}: the pod webhook process (docs/behaviour.md#routing-pods). Every flag has an
 * environment variable fallback and a default; the Helm chart passes its own
 * (chart/templates/_helpers.tpl, {@code kuik.webhook.args}).
 */
@Command(
    name = "webhook",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Serves the pod webhook on POST /mutate-pods over HTTPS: routes each new pod's images to"
          + " the first available candidate of the ImageAlternatives and ImageMirrors covering"
          + " them, and adds the kuik-inject-<kind>-<name> pull Secret the pod then needs.",
      "Every flag falls back to the environment variable named in its description, then to its"
          + " default. Durations are a whole number and one unit: ms, s, m or h (500ms, 30s).",
      ""
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:stopped (SIGTERM)",
      "1:failed to start: a port taken, the TLS files unusable, the informers refused",
      "2:bad command line"
    })
public final class WebhookCommand implements KuikSubcommand {

  private static final Logger LOG = Logger.getLogger(WebhookCommand.class.getName());

  @Spec CommandSpec spec;

  @Option(
      names = "--cluster-resource-namespace",
      paramLabel = "<namespace>",
      defaultValue = "${env:KUIK_CLUSTER_RESOURCE_NAMESPACE}",
      description = {
        "Namespace of kuik's install, where the secretRef Secrets live: the only namespace whose"
            + " Secrets the webhook reads, to probe registries with the entry's credential.",
        "Env: KUIK_CLUSTER_RESOURCE_NAMESPACE. Default: the namespace of the pod's"
            + " ServiceAccount; required outside a pod."
      })
  String clusterResourceNamespace;

  @Option(
      names = "--port",
      paramLabel = "<port>",
      defaultValue = "${env:KUIK_PORT:-8443}",
      description = {
        "HTTPS port of POST /mutate-pods (and of /healthz and /readyz).",
        "Env: KUIK_PORT. Default: ${DEFAULT-VALUE}."
      })
  int port;

  @Option(
      names = "--tls-cert-file",
      paramLabel = "<file>",
      defaultValue = "${env:KUIK_TLS_CERT_FILE}",
      description = {
        "PEM certificate chain the webhook serves, leaf first; read again when it changes, so a"
            + " renewed Secret is served without a restart.",
        "Env: KUIK_TLS_CERT_FILE. Required."
      })
  Path tlsCertFile;

  @Option(
      names = "--tls-key-file",
      paramLabel = "<file>",
      defaultValue = "${env:KUIK_TLS_KEY_FILE}",
      description = {
        "PEM private key of the certificate (PKCS#8, PKCS#1 RSA or SEC1 EC; not encrypted).",
        "Env: KUIK_TLS_KEY_FILE. Required."
      })
  Path tlsKeyFile;

  @Option(
      names = "--health-port",
      paramLabel = "<port>",
      defaultValue = "${env:KUIK_HEALTH_PORT:-8080}",
      description = {
        "Plain HTTP port of /healthz (alive), /readyz (informers synced, not shutting down) and"
            + " /metrics (Prometheus).",
        "Env: KUIK_HEALTH_PORT. Default: ${DEFAULT-VALUE}."
      })
  int healthPort;

  @Option(
      names = "--probe-timeout",
      paramLabel = "<duration>",
      converter = DurationConverter.class,
      defaultValue = "${env:KUIK_PROBE_TIMEOUT:-2s}",
      description = {
        "The longest one admission waits for the registries' answers; a candidate still"
            + " unanswered counts as unreachable. Keep it under the webhook's timeoutSeconds.",
        "Env: KUIK_PROBE_TIMEOUT. Default: ${DEFAULT-VALUE}."
      })
  Duration probeTimeout;

  @Option(
      names = "--probe-cache-ttl",
      paramLabel = "<duration>",
      converter = DurationConverter.class,
      defaultValue = "${env:KUIK_PROBE_CACHE_TTL:-30s}",
      description = {
        "How long a registry's answer about an image is reused, so a rollout of many replicas"
            + " costs one probe per image. 0s probes every time.",
        "Env: KUIK_PROBE_CACHE_TTL. Default: ${DEFAULT-VALUE}."
      })
  Duration probeCacheTtl;

  @Option(
      names = "--insecure-registries",
      paramLabel = "<host[:port],...>",
      defaultValue = "${env:KUIK_INSECURE_REGISTRIES:-}",
      description = {
        "Registries probed over plain HTTP instead of HTTPS, comma-separated, written as in image"
            + " references (registry.local:5000). Loopback registries always are.",
        "Env: KUIK_INSECURE_REGISTRIES. Default: none."
      })
  String insecureRegistries;

  @Option(
      names = "--pull-secret-first",
      paramLabel = "<true|false>",
      arity = "1",
      defaultValue = "${env:KUIK_PULL_SECRET_FIRST:-false}",
      description = {
        "Gate each pod given a pull-secret reference with kuik.enix.io/pull-secret while the"
            + " syncer's Lease (--syncer-lease) is fresh, and remove the gate of a pod still gated"
            + " --gate-max-wait after its creation, with a Warning Event PullSecretNotReady.",
        "Env: KUIK_PULL_SECRET_FIRST. Default: ${DEFAULT-VALUE}."
      })
  boolean pullSecretFirst;

  @Option(
      names = "--gate-max-wait",
      paramLabel = "<duration>",
      converter = DurationConverter.class,
      defaultValue = "${env:KUIK_GATE_MAX_WAIT:-30s}",
      description = {
        "With --pull-secret-first: how long after its creation a pod may stay gated; then it goes"
            + " on as without the gate.",
        "Env: KUIK_GATE_MAX_WAIT. Default: ${DEFAULT-VALUE}."
      })
  Duration gateMaxWait;

  @Option(
      names = "--syncer-lease",
      paramLabel = "<name>",
      defaultValue = "${env:KUIK_SYNCER_LEASE:-kuik-secret-syncer}",
      description = {
        "With --pull-secret-first: the syncer's leader-election Lease in the cluster resource"
            + " namespace (the syncer's --lease-name; the chart's <fullname>-secret-syncer).",
        "Env: KUIK_SYNCER_LEASE. Default: ${DEFAULT-VALUE}."
      })
  String syncerLease;

  @Mixin PodGatesPolicyOptions podGates;

  @Mixin ExcludedNamespacesOption excluded;

  @Option(
      names = "--shutdown-delay",
      paramLabel = "<duration>",
      converter = DurationConverter.class,
      defaultValue = "${env:KUIK_SHUTDOWN_DELAY:-5s}",
      description = {
        "After SIGTERM, how long admissions are still answered while /readyz fails, so that"
            + " the Service stops sending before the server closes.",
        "Env: KUIK_SHUTDOWN_DELAY. Default: ${DEFAULT-VALUE}."
      })
  Duration shutdownDelay;

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

  private final UntilExit<WebhookRuntime> process = new UntilExit<>();

  @Override
  public Integer call() throws Exception {
    WebhookRuntimeSettings settings = settings();
    LogSetup.configure(logFormat, logLevel);
    LOG.info(describe(settings));
    ClusterConnection connection;
    try {
      connection = ClusterConnection.resolve();
    } catch (ClusterConnection.Unusable unusable) {
      LOG.severe("cannot start the webhook: " + unusable.getMessage());
      return ExitReason.STARTUP_FAILED.exitCode();
    }
    if (connection.noCluster("webhook").isPresent()) {
      LOG.severe(connection.noCluster("webhook").get());
      return ExitReason.STARTUP_FAILED.exitCode();
    }
    LOG.info("talking to the " + connection.describe());
    ApiClientMetrics apiMetrics = new ApiClientMetrics();
    try (KubernetesClient client =
        new KubernetesClientBuilder()
            .withConfig(connection.config())
            .withHttpClientBuilderConsumer(apiMetrics::instrument)
            .build()) {
      WebhookRuntime runtime;
      try {
        runtime = WebhookRuntime.start(settings, client);
      } catch (IOException | GeneralSecurityException cannotServe) {
        LOG.severe("cannot start the webhook: " + LogLine.describe(cannotServe));
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

  /** The running process, if any: for tests that need its ports. */
  public WebhookRuntime runtime() {
    return process.running();
  }

  WebhookRuntimeSettings settings() {
    return settings(true);
  }

  /**
   * What the parsed command line tells the process; {@code filesChecked} false leaves the TLS files
   * unread (the simulator runs the webhook without TLS, from the chart's own arguments).
   */
  public WebhookRuntimeSettings settings(boolean filesChecked) {
    String namespace =
        ClusterResourceNamespace.resolve(
                clusterResourceNamespace, ClusterResourceNamespace.SERVICE_ACCOUNT_NAMESPACE)
            .orElseThrow(
                () ->
                    bad(
                        "Missing the cluster resource namespace: pass"
                            + " --cluster-resource-namespace=<kuik's install namespace> or set"
                            + " KUIK_CLUSTER_RESOURCE_NAMESPACE"));
    if (!Dns1123.isLabel(namespace)) {
      throw bad("Invalid cluster resource namespace '" + namespace + "': not a namespace name");
    }
    if (pullSecretFirst && !Dns1123.isSubdomain(syncerLease)) {
      throw bad("Invalid --syncer-lease '" + syncerLease + "': not an object name");
    }
    if (pullSecretFirst && (gateMaxWait.isZero() || gateMaxWait.isNegative())) {
      throw bad(
          "Invalid --gate-max-wait "
              + Durations.text(gateMaxWait)
              + ": give a positive duration, e.g. 30s");
    }
    checkPort("--port", port);
    checkPort("--health-port", healthPort);
    if (port != 0 && port == healthPort) {
      throw bad("--port and --health-port are both " + port + ": give them different ports");
    }
    Path cert = readableFile("--tls-cert-file", "KUIK_TLS_CERT_FILE", tlsCertFile, filesChecked);
    Path key = readableFile("--tls-key-file", "KUIK_TLS_KEY_FILE", tlsKeyFile, filesChecked);
    try {
      ProberSettings prober =
          new ProberSettings(
              probeTimeout,
              probeCacheTtl,
              insecureRegistries(),
              ProberSettings.DEFAULT_MAX_CONCURRENT_PROBES);
      return new WebhookRuntimeSettings(
          namespace,
          WebhookServer.Settings.of(new InetSocketAddress(port), cert, key),
          healthPort,
          prober,
          shutdownDelay,
          pullSecretFirst
              ? new WebhookRuntimeSettings.PullSecretFirst(
                  syncerLease, gateMaxWait, podGates.policy(spec))
              : null,
          excluded.served(namespace, spec));
    } catch (IllegalArgumentException invalid) {
      throw bad("Invalid setting: " + invalid.getMessage());
    }
  }

  private Set<String> insecureRegistries() {
    try {
      return InsecureRegistries.parse(insecureRegistries);
    } catch (IllegalArgumentException invalid) {
      throw bad(invalid.getMessage());
    }
  }

  private void checkPort(String flag, int value) {
    if (value < 0 || value > 65535) {
      throw bad("Invalid " + flag + " " + value + ": a port is 0 to 65535");
    }
  }

  private Path readableFile(String flag, String env, Path file, boolean checked) {
    if (file == null || file.toString().isBlank()) {
      throw bad("Missing " + flag + ": pass " + flag + "=<PEM file> or set " + env);
    }
    if (checked && (!Files.isRegularFile(file) || !Files.isReadable(file))) {
      throw bad("Invalid " + flag + " " + file + ": no readable file there");
    }
    return file;
  }

  private ParameterException bad(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /** The settings in one short line: what an operator compares with the chart's values. */
  static String describe(WebhookRuntimeSettings s) {
    return "starting the pod webhook in "
        + s.clusterResourceNamespace()
        + ": HTTPS port "
        + s.server().address().getPort()
        + ", probe timeout "
        + Durations.text(s.prober().probeTimeout())
        + ", probe cache "
        + Durations.text(s.prober().cacheTtl())
        + (s.prober().insecureRegistries().isEmpty()
            ? ""
            : ", insecure registries "
                + String.join(",", new java.util.TreeSet<>(s.prober().insecureRegistries())))
        + (s.pullSecretFirst() == null
            ? ""
            : ", pull secret first (bound " + Durations.text(s.pullSecretFirst().maxWait()) + ")");
  }
}
