package io.kuik.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kuik.model.Dns1123;
import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.selftest.FabricSelftestCluster;
import io.kuik.selftest.Selftest;
import io.kuik.selftest.SelftestReport;
import io.kuik.selftest.SelftestSettings;
import java.io.PrintWriter;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code kuik selftest}: proof that a release works on the cluster it is installed in, with reads
 * and dry-run creates only. The chart runs it as its {@code helm test} hook.
 */
@Command(
    name = "selftest",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Checks that a kuik release is installed and works on the cluster of your kubeconfig"
          + " (KUBECONFIG, else ~/.kube/config, else the pod's ServiceAccount; --context to pick"
          + " one). The chart runs it as its `helm test` hook, under a ServiceAccount of its own"
          + " that exists only while the test runs.",
      "It sends read requests and creates with dryRun=All only, which the API server authorizes,"
          + " admits and validates as real creates and then does not store: it leaves nothing"
          + " behind. One row per check (check, result, why):",
      "  policy          the release's ValidatingAdmissionPolicy <fullname>-pull-secrets exists,"
          + " belongs to the release (meta.helm.sh/release-name, else the"
          + " app.kubernetes.io/instance label) and fails closed;",
      "  policy-binding  its binding exists, binds it, and denies;",
      "  reserved-names  the policy refuses your identity a dry-run create of the Secret"
          + " kuik-inject-selftest in the release namespace, with the policy's own message;",
      "  syncer-ready, webhook-ready"
          + "  each Deployment has available replicas, and /readyz answers 200 through the"
          + " component's metrics Service when that can be reached (from outside the cluster it"
          + " usually cannot: only the replicas count then);",
      "  pod-rewritten   with --pod-namespace and --image: a dry-run pod of the image in that"
          + " namespace comes back rewritten by kuik's webhook and referencing its"
          + " kuik-inject-* Secret (skipped otherwise);",
      "  credentials     no ImageAlternative or ImageMirror has a CredentialsAccepted condition"
          + " False, i.e. no registry refused a credential kuik injects (Unknown, a registry"
          + " out of reach, is a warning).",
      "Results: pass, fail, warn (holds, but look), skip. Rights it needs: get on the policy and"
          + " binding, on the two Deployments, list on imagealternatives and imagemirrors, create"
          + " on Secrets in the release namespace (dry run), and create on pods in --pod-namespace"
          + " for the pod check. The chart's test hook grants exactly these.",
      ""
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:every check passed (warnings and skipped checks included)",
      "1:a check failed (its row says why), or no cluster to check",
      "2:bad command line"
    })
public final class SelftestCommand implements KuikSubcommand {

  /** The chart's default health port, where the metrics Services expose /readyz. */
  static final int DEFAULT_HEALTH_PORT = 8080;

  @Spec CommandSpec spec;

  @Option(
      names = "--release",
      paramLabel = "<name>",
      defaultValue = "${env:KUIK_RELEASE:-kuik}",
      description = {
        "The Helm release to check: its objects must carry meta.helm.sh/release-name=<name>.",
        "Env: KUIK_RELEASE. Default: ${DEFAULT-VALUE}."
      })
  String release;

  @Option(
      names = {"-n", "--namespace"},
      paramLabel = "<namespace>",
      description = {
        "The release's namespace, where kuik is installed, as helm's and kubectl's --namespace;"
            + " the same as --cluster-resource-namespace.",
        "Deprecated with --image and without --pod-namespace: then it names the pod check's"
            + " namespace, as it did before --pod-namespace."
      })
  String namespace;

  @Option(
      names = "--cluster-resource-namespace",
      paramLabel = "<namespace>",
      defaultValue = "${env:KUIK_CLUSTER_RESOURCE_NAMESPACE:-kuik-system}",
      description = {
        "The release's namespace, where kuik is installed.",
        "Env: KUIK_CLUSTER_RESOURCE_NAMESPACE. Default: ${DEFAULT-VALUE}."
      })
  String clusterResourceNamespace;

  @Option(
      names = "--fullname",
      paramLabel = "<prefix>",
      defaultValue = "${env:KUIK_FULLNAME}",
      description = {
        "The prefix of the release's object names (the chart's fullnameOverride).",
        "Env: KUIK_FULLNAME. Default: the release name."
      })
  String fullname;

  @Option(
      names = "--admission-policy",
      paramLabel = "<name>",
      defaultValue = "${env:KUIK_ADMISSION_POLICY}",
      description = {
        "The ValidatingAdmissionPolicy that bounds the syncer's writes (the syncer's flag of the"
            + " same name).",
        "Env: KUIK_ADMISSION_POLICY. Default: <fullname>-pull-secrets."
      })
  String admissionPolicy;

  @Option(
      names = "--admission-policy-binding",
      paramLabel = "<name>",
      defaultValue = "${env:KUIK_ADMISSION_POLICY_BINDING}",
      description = {
        "Its ValidatingAdmissionPolicyBinding.",
        "Env: KUIK_ADMISSION_POLICY_BINDING. Default: <fullname>-pull-secrets."
      })
  String admissionPolicyBinding;

  @Option(
      names = "--syncer-deployment",
      paramLabel = "<name>",
      defaultValue = "${env:KUIK_SYNCER_DEPLOYMENT}",
      description = {
        "The syncer's Deployment in the release's namespace.",
        "Env: KUIK_SYNCER_DEPLOYMENT. Default: <fullname>-secret-syncer."
      })
  String syncerDeployment;

  @Option(
      names = "--webhook-deployment",
      paramLabel = "<name>",
      defaultValue = "${env:KUIK_WEBHOOK_DEPLOYMENT}",
      description = {
        "The webhook's Deployment in the release's namespace.",
        "Env: KUIK_WEBHOOK_DEPLOYMENT. Default: <fullname>-webhook."
      })
  String webhookDeployment;

  @Option(
      names = "--syncer-readyz",
      paramLabel = "<url|none>",
      defaultValue = "${env:KUIK_SYNCER_READYZ}",
      description = {
        "The syncer's /readyz through its Service; none not to ask.",
        "Env: KUIK_SYNCER_READYZ. Default: /readyz on port "
            + DEFAULT_HEALTH_PORT
            + " of the Service <fullname>-secret-syncer-metrics in the release's namespace."
      })
  String syncerReadyz;

  @Option(
      names = "--webhook-readyz",
      paramLabel = "<url|none>",
      defaultValue = "${env:KUIK_WEBHOOK_READYZ}",
      description = {
        "The webhook's /readyz through its Service; none not to ask.",
        "Env: KUIK_WEBHOOK_READYZ. Default: /readyz on port "
            + DEFAULT_HEALTH_PORT
            + " of the Service <fullname>-webhook-metrics in the release's namespace."
      })
  String webhookReadyz;

  @Option(
      names = "--pod-namespace",
      paramLabel = "<namespace>",
      description = {
        "With --image: the namespace of the dry-run pod whose rewrite is checked. A namespace"
            + " the webhook serves (not kuik's own)."
      })
  String podNamespace;

  @Option(
      names = "--image",
      paramLabel = "<image>",
      description = {
        "With --pod-namespace: the image of the dry-run pod, one that an ImageAlternative or"
            + " ImageMirror routes there through an entry whose credential is injected."
      })
  String podImage;

  @Option(
      names = "--context",
      paramLabel = "<name>",
      description = {"The kubeconfig context to use. Default: the current context."})
  String context;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "<text|json>",
      defaultValue = "text",
      description = {"text (a table) or json. Default: ${DEFAULT-VALUE}."})
  String output;

  @Override
  public Integer call() {
    SelftestSettings settings = settings();
    String format = output.toLowerCase(Locale.ROOT);
    if (!format.equals("text") && !format.equals("json")) {
      throw bad("Invalid --output '" + output + "': text or json");
    }
    ClusterConnection connection;
    try {
      connection = ClusterConnection.resolve(context);
    } catch (ClusterConnection.Unusable unusable) {
      spec.commandLine().getErr().println("kuik selftest: " + unusable.getMessage());
      return 1;
    }
    Optional<String> noCluster = connection.noCluster("selftest");
    if (noCluster.isPresent()) {
      spec.commandLine().getErr().println(noCluster.get());
      return 1;
    }
    Config config = new ConfigBuilder(connection.config()).withRequestRetryBackoffLimit(1).build();
    SelftestReport report;
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      report = Selftest.run(new FabricSelftestCluster(client), settings);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(format.equals("json") ? report.json() : report.text());
    out.flush();
    return report.passed() ? 0 : 1;
  }

  /**
   * What the parsed command line asks to check (the chart's tests read it from the test pod's
   * arguments).
   *
   * @throws ParameterException for a value the command refuses
   */
  public SelftestSettings settings() {
    namespaces();
    if (!Dns1123.isLabel(release)) {
      throw bad("Invalid --release '" + release + "': a DNS-1123 label");
    }
    if (!Dns1123.isLabel(clusterResourceNamespace)) {
      throw bad("Invalid --cluster-resource-namespace '" + clusterResourceNamespace + "'");
    }
    String prefix = fullname == null || fullname.isBlank() ? release : fullname.strip();
    if (!Dns1123.isLabel(prefix)) {
      throw bad("Invalid --fullname '" + fullname + "': a DNS-1123 label");
    }
    SelftestSettings.PodCheck pod = null;
    if ((podNamespace == null) != (podImage == null)) {
      throw bad("--pod-namespace and --image go together: the pod check needs both");
    }
    if (podNamespace != null) {
      if (!Dns1123.isLabel(podNamespace)) {
        throw bad("Invalid --pod-namespace '" + podNamespace + "'");
      }
      if (podNamespace.equals(clusterResourceNamespace)) {
        throw bad(
            "--pod-namespace "
                + podNamespace
                + " is kuik's own namespace, which the webhook never serves: name a namespace"
                + " where pods are routed");
      }
      try {
        ImageReference.parse(podImage);
      } catch (InvalidImageReferenceException e) {
        throw bad("Invalid --image '" + podImage + "': " + e.getMessage());
      }
      pod = new SelftestSettings.PodCheck(podNamespace, podImage);
    }
    SelftestSettings.Names chart = SelftestSettings.Names.of(prefix);
    SelftestSettings.Names names =
        new SelftestSettings.Names(
            name("--admission-policy", admissionPolicy, chart.policy()),
            name("--admission-policy-binding", admissionPolicyBinding, chart.policyBinding()),
            name("--syncer-deployment", syncerDeployment, chart.syncerDeployment()),
            name("--webhook-deployment", webhookDeployment, chart.webhookDeployment()));
    return new SelftestSettings(
        release,
        clusterResourceNamespace,
        names,
        readyz("--syncer-readyz", syncerReadyz, names.syncerDeployment()),
        readyz("--webhook-readyz", webhookReadyz, names.webhookDeployment()),
        pod);
  }

  /** An object's name as given, or the chart's default for it. */
  private String name(String flag, String value, String chartDefault) {
    if (value == null || value.isBlank()) {
      return chartDefault;
    }
    if (!Dns1123.isSubdomain(value.strip())) {
      throw bad("Invalid " + flag + " '" + value + "': not an object name");
    }
    return value.strip();
  }

  /**
   * {@code --namespace} names the release's namespace, as in helm and kubectl; with {@code --image}
   * and no {@code --pod-namespace} it keeps the meaning it had before, the pod check's namespace,
   * with a note that says so.
   */
  private void namespaces() {
    if (namespace == null) {
      return;
    }
    if (podImage != null && podNamespace == null) {
      podNamespace = namespace;
      spec.commandLine()
          .getErr()
          .println(
              "kuik selftest: deprecated: --namespace with --image names the pod check's"
                  + " namespace; write --pod-namespace "
                  + namespace
                  + " (alone, --namespace names the release's namespace, as in helm and"
                  + " kubectl)");
      return;
    }
    if (spec.commandLine().getParseResult().hasMatchedOption("--cluster-resource-namespace")
        && !namespace.equals(clusterResourceNamespace)) {
      throw bad(
          "--namespace "
              + namespace
              + " and --cluster-resource-namespace "
              + clusterResourceNamespace
              + " name two namespaces: give one");
    }
    clusterResourceNamespace = namespace;
  }

  private URI readyz(String flag, String value, String deployment) {
    if (value == null || value.isBlank()) {
      return SelftestSettings.serviceReadyz(
          deployment, clusterResourceNamespace, DEFAULT_HEALTH_PORT);
    }
    if (value.strip().equals("none")) {
      return null;
    }
    try {
      URI uri = URI.create(value.strip());
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())
          || uri.getHost() == null) {
        throw new IllegalArgumentException("not an http(s) URL");
      }
      return uri;
    } catch (IllegalArgumentException e) {
      throw bad("Invalid " + flag + " '" + value + "': an http URL, or none");
    }
  }

  private ParameterException bad(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
