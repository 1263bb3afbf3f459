package io.kuik.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kuik.explain.Explain;
import io.kuik.explain.Explanation;
import io.kuik.model.Dns1123;
import io.kuik.syncer.SyncerSettings;
import io.kuik.syncer.Targeting;
import io.kuik.webhook.OciRegistryProber;
import io.kuik.webhook.ProberSettings;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code kuik explain pod|deployment <namespace>/<name>}: why a pod pulls the way it does, against
 * the cluster of the kubeconfig, read-only.
 */
@Command(
    name = "explain",
    mixinStandardHelpOptions = true,
    description = {
      "Explains, read-only, how kuik routed a pod and how the kubelet will pull its images, on the"
          + " cluster of your kubeconfig (KUBECONFIG, else ~/.kube/config; --context to pick one).",
      "Run: kuik explain pod <namespace>/<name>, or kuik explain deployment <namespace>/<name> for"
          + " the pod its template would give. kuik explain <command> --help lists the flags."
    },
    subcommands = {ExplainCommand.PodTarget.class, ExplainCommand.DeploymentTarget.class})
public final class ExplainCommand implements KuikSubcommand {

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "Missing what to explain: pod or deployment");
  }

  /** The flags of both targets. */
  static final class Flags {
    private static final Pattern REGISTRY_HOST = InsecureRegistries.REGISTRY_HOST;
    private static final JsonMapper JSON =
        JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(
        names = "--cluster-resource-namespace",
        paramLabel = "<namespace>",
        defaultValue = "${env:KUIK_CLUSTER_RESOURCE_NAMESPACE:-kuik-system}",
        description = {
          "kuik's install namespace, as the syncer's flag: where the secretRef Secrets live. Its"
              + " Secrets are the only ones explain needs to read.",
          "Env: KUIK_CLUSTER_RESOURCE_NAMESPACE. Default: ${DEFAULT-VALUE}."
        })
    String clusterResourceNamespace;

    @Option(
        names = "--namespaces-by-default",
        paramLabel = "<true|false>",
        arity = "1",
        defaultValue = "${env:KUIK_NAMESPACES_BY_DEFAULT:-true}",
        description = {
          "As the syncer's flag: whether that instance serves namespaces that carry neither"
              + " kuik.enix.io/pull-secrets-override nor kuik.enix.io/pull-secrets-instance.",
          "Env: KUIK_NAMESPACES_BY_DEFAULT. Default: ${DEFAULT-VALUE}."
        })
    boolean namespacesByDefault;

    @Mixin ExcludedNamespacesOption excluded;

    @Option(
        names = "--probe",
        description = {
          "Ask the registries (an OCI HEAD of each candidate's manifest, with the entry's"
              + " credential, as the webhook does) to show the image the webhook would choose"
              + " now. Without it, nothing is sent to any registry and the candidates are only"
              + " listed."
        })
    boolean probe;

    @Option(
        names = "--probe-timeout",
        paramLabel = "<duration>",
        converter = DurationConverter.class,
        defaultValue = "2s",
        description = {
          "With --probe: how long to wait for the registries' answers. Default: ${DEFAULT-VALUE}."
        })
    Duration probeTimeout;

    @Option(
        names = "--insecure-registries",
        paramLabel = "<host[:port],...>",
        defaultValue = "",
        description = {
          "With --probe: registries asked over plain HTTP, comma-separated, as the webhook's"
              + " flag. Loopback registries always are. Default: none."
        })
    String insecureRegistries;

    @Option(
        names = "--context",
        paramLabel = "<name>",
        description = {"The kubeconfig context to use. Default: the current context."})
    String context;

    @Option(
        names = {"-o", "--output"},
        paramLabel = "<text|json>",
        defaultValue = "text",
        description = {"text or json. Default: ${DEFAULT-VALUE}."})
    String output;

    int explain(String target, boolean deployment) throws Exception {
      String[] nsAndName = target.split("/", -1);
      if (nsAndName.length != 2 || nsAndName[0].isEmpty() || nsAndName[1].isEmpty()) {
        throw bad("Expected <namespace>/<name>, got '" + target + "'");
      }
      if (!Dns1123.isLabel(clusterResourceNamespace)) {
        throw bad("Invalid cluster resource namespace '" + clusterResourceNamespace + "'");
      }
      String format = output.toLowerCase(Locale.ROOT);
      if (!format.equals("text") && !format.equals("json")) {
        throw bad("Invalid --output '" + output + "': text or json");
      }
      Set<String> insecure = new LinkedHashSet<>();
      for (String host : insecureRegistries.split(",")) {
        if (!host.isBlank()) {
          if (!REGISTRY_HOST.matcher(host.strip()).matches()) {
            throw bad("Invalid --insecure-registries entry '" + host + "': host[:port]");
          }
          insecure.add(host.strip());
        }
      }
      if (probeTimeout.isZero() || probeTimeout.isNegative()) {
        throw bad("--probe-timeout must be positive");
      }
      SyncerSettings settings =
          SyncerSettings.defaults(clusterResourceNamespace)
              .withTargeting(
                  new Targeting(
                      clusterResourceNamespace,
                      namespacesByDefault,
                      excluded.served(clusterResourceNamespace, spec)));
      PrintWriter err = spec.commandLine().getErr();
      ClusterConnection connection;
      try {
        connection = ClusterConnection.resolve(context);
      } catch (ClusterConnection.Unusable unusable) {
        err.println("kuik explain: " + unusable.getMessage());
        return 1;
      }
      Optional<String> noCluster = connection.noCluster("explain");
      if (noCluster.isPresent()) {
        err.println(noCluster.get());
        return 1;
      }
      Config config =
          new ConfigBuilder(connection.config()).withRequestRetryBackoffLimit(0).build();
      PrintWriter out = spec.commandLine().getOut();
      try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
          OciRegistryProber prober =
              probe
                  ? new OciRegistryProber(
                      new ProberSettings(
                          probeTimeout,
                          Duration.ZERO,
                          insecure,
                          ProberSettings.DEFAULT_MAX_CONCURRENT_PROBES))
                  : null) {
        Explain explain = new Explain(client, settings, prober);
        Explanation explanation =
            deployment
                ? explain.deployment(nsAndName[0], nsAndName[1])
                : explain.pod(nsAndName[0], nsAndName[1]);
        out.print(
            format.equals("json")
                ? JSON.writeValueAsString(explanation) + "\n"
                : Explain.text(explanation));
        out.flush();
        return 0;
      } catch (Explain.NothingToExplain nothing) {
        err.println("kuik explain: " + nothing.getMessage() + " (" + connection.describe() + ")");
        return 1;
      }
    }

    private ParameterException bad(String message) {
      return new ParameterException(spec.commandLine(), message);
    }
  }

  @Command(
      name = "pod",
      mixinStandardHelpOptions = true,
      sortOptions = false,
      usageHelpAutoWidth = true,
      description = {
        "For each container of the pod: the original and current image, which routing resource"
            + " and entry rewrote it and why (the kuik.enix.io/* annotations), what the webhook"
            + " would decide now, the kuik-inject-* Secret its credential is in and whether the"
            + " pod references it, and the keys the kubelet will offer for the image by its own"
            + " keyring rules, with a warning when a kuik credential is offered to an image it"
            + " was not written for.",
        "Reads (GET and LIST only): the pod, its namespace and the pods there, ImageAlternatives"
            + " and ImageMirrors, the secretRef Secrets of the cluster resource namespace, the"
            + " pod's pull Secrets. A read you may not make is named, and explain goes on"
            + " without it: a kuik-inject-* Secret it cannot read is taken as the syncer writes"
            + " it now.",
        ""
      },
      exitCodeListHeading = "%nExit codes:%n",
      exitCodeList = {
        "0:explained",
        "1:the pod could not be read (not found, forbidden, no API server, no kubeconfig)",
        "2:bad command line"
      })
  static final class PodTarget implements Callable<Integer> {
    @Parameters(paramLabel = "<namespace>/<name>", description = "The pod to explain.")
    String target;

    @Mixin Flags flags;

    @Override
    public Integer call() throws Exception {
      return flags.explain(target, false);
    }
  }

  @Command(
      name = "deployment",
      mixinStandardHelpOptions = true,
      sortOptions = false,
      usageHelpAutoWidth = true,
      description = {
        "As explain pod, for the pod the Deployment's template would give if it were created"
            + " now: the webhook's decision says which resource would rewrite each container,"
            + " and the references it would add count in what the kubelet offers.",
        ""
      },
      exitCodeListHeading = "%nExit codes:%n",
      exitCodeList = {
        "0:explained",
        "1:the Deployment could not be read (not found, forbidden, no API server, no kubeconfig)",
        "2:bad command line"
      })
  static final class DeploymentTarget implements Callable<Integer> {
    @Parameters(paramLabel = "<namespace>/<name>", description = "The Deployment to explain.")
    String target;

    @Mixin Flags flags;

    @Override
    public Integer call() throws Exception {
      return flags.explain(target, true);
    }
  }
}
