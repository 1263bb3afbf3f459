package io.kuik.sim.cli;

import io.kuik.cli.KuikSubcommand;
import io.kuik.sim.plan.Manifests;
import io.kuik.sim.plan.PlanOutput;
import io.kuik.sim.plan.PlanReport;
import io.kuik.sim.plan.PlanSettings;
import io.kuik.sim.plan.Planner;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code kuik plan}: what kuik would do with a set of manifests, found by running the production
 * webhook and syncer on the simulated cluster with the chart's own admission policy and RBAC (the
 * copy bundled in this jar). No cluster, no network.
 */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Shows what kuik would do with these manifests, before they reach a cluster: the"
          + " kuik-inject-* Secrets each namespace would get and the auths keys they would hold"
          + " (with the source Secret and key each came from, never a credential), each"
          + " container's candidates in probe order and the image it would run, the pull-secret"
          + " references added, and every problem the cluster would report.",
      "It runs kuik's own webhook and syncer on a simulated cluster, with the chart's admission"
          + " policy and RBAC, until the cluster goes quiet; no cluster and no network are used."
          + " Every registry serves every image to anyone unless --original-down or"
          + " --registry-down says otherwise.",
      "Read: Namespace, Secret, ImageAlternative, ImageMirror, Pod, Deployment (one pod of its"
          + " template), and v1 List; other kinds are listed as ignored. A Secret without a"
          + " namespace is copied into every --instance namespace; a Pod or Deployment without"
          + " one goes to default. A redacted Secret stands for a source Secret without its"
          + " credentials: type kubernetes.io/dockerconfigjson, no data, and the annotation "
          + Manifests.AUTHS_KEYS
          + " listing its auths keys, comma-separated.",
      ""
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:no problem found",
      "1:a problem was found (listed under PROBLEMS)",
      "2:bad command line, or nothing to plan (no manifest read, or a chart to render first)"
    })
public final class PlanCommand implements KuikSubcommand {

  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  private static final Pattern REGISTRY_HOST =
      Pattern.compile(
          "([A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?)*"
              + "|\\[[0-9A-Fa-f:.]+\\])(:[0-9]{1,5})?");

  @Spec CommandSpec spec;

  @Option(
      names = {"-f", "--filename"},
      paramLabel = "<file or folder>",
      required = true,
      arity = "1..*",
      description = {
        "Manifests to plan: YAML or JSON files, or folders read recursively (*.yaml, *.yml,"
            + " *.json); - reads them from standard input (helm template ... | kuik plan -f -)."
            + " Repeatable; several paths may follow one -f. A Helm chart's folder is refused:"
            + " render it first."
      })
  List<Path> files = new ArrayList<>();

  @Option(
      names = "--diff",
      paramLabel = "<file or folder>",
      arity = "1..*",
      description = {
        "Manifests as they were before: plan them too and print what changes from them to -f"
            + " (Secrets and keys, candidates and chosen images, added references, problems),"
            + " then the problems of -f. Repeatable, like -f."
      })
  List<Path> before = new ArrayList<>();

  @Option(
      names = "--instance",
      paramLabel = "<namespace>[=<true|false>]",
      description = {
        "A kuik syncer instance: its install namespace (its cluster resource namespace, where"
            + " its secretRef Secrets live) and, after =, its syncer.namespacesByDefault."
            + " Repeatable, one per shard; the first also runs the webhook. Default:"
            + " kuik-system."
      })
  List<String> instances = new ArrayList<>();

  @Option(
      names = "--namespaces-by-default",
      paramLabel = "<true|false>",
      defaultValue = "true",
      arity = "1",
      description = {
        "Whether an instance that says nothing after = serves namespaces with neither"
            + " kuik.enix.io/pull-secrets-override nor kuik.enix.io/pull-secrets-instance, as"
            + " the chart's syncer.namespacesByDefault. Default: ${DEFAULT-VALUE}."
      })
  boolean namespacesByDefault;

  @Option(
      names = "--original-down",
      description = {
        "Every container's original image is unreachable (its repository, not its whole"
            + " registry): shows which candidate each container would run during an outage of"
            + " the originals."
      })
  boolean originalDown;

  @Option(
      names = "--registry-down",
      paramLabel = "<host[:port]>",
      description = {
        "This registry is unreachable (docker.io, quay.io, localhost:5000). Repeatable."
      })
  List<String> registriesDown = new ArrayList<>();

  @Option(
      names = {"-o", "--output"},
      paramLabel = "<format>",
      defaultValue = "table",
      converter = FormatConverter.class,
      description = {"table, json or yaml. Default: ${DEFAULT-VALUE}."})
  PlanOutput.Format output;

  @Option(
      names = "--verbose",
      description = {"Also print the webhook's and the syncer's own log lines on standard error."})
  boolean verbose;

  @Override
  public Integer call() {
    PlanSettings settings = settings();
    Manifests.Set after;
    Manifests.Set previous;
    try {
      after = read(files);
      previous = before.isEmpty() ? null : read(before);
    } catch (Manifests.NotManifests notManifests) {
      return refuse(notManifests.getMessage());
    }
    if (after.isEmpty()) {
      return refuse(nothingToPlan(after));
    }
    try (SimulatedLogs logs = SimulatedLogs.at(verbose, Level.OFF)) {
      PlanReport planned = Planner.plan(after, settings);
      String text =
          previous == null
              ? PlanOutput.render(planned, output)
              : PlanOutput.renderDiff(Planner.plan(previous, settings), planned, output);
      PrintWriter out = spec.commandLine().getOut();
      out.print(text);
      out.flush();
      return planned.hasProblems() ? 1 : 0;
    }
  }

  private Manifests.Set read(List<Path> paths) {
    try {
      return Manifests.read(paths, System.in);
    } catch (IllegalArgumentException missing) {
      throw new ParameterException(spec.commandLine(), missing.getMessage());
    }
  }

  /** A plan of nothing would print "PROBLEMS (none)" and exit 0, which CI takes for a pass. */
  private static String nothingToPlan(Manifests.Set read) {
    StringBuilder message =
        new StringBuilder(
            "nothing to plan: no Namespace, Secret, ImageAlternative, ImageMirror, Pod or"
                + " Deployment in what was read:");
    read.read().forEach(line -> message.append("\n  ").append(line));
    read.ignored().forEach(line -> message.append("\n  ignored: ").append(line));
    for (var problem : read.problems()) {
      String line = problem.object() + ": " + problem.message();
      if (!read.read().contains(line)) {
        message.append("\n  ").append(line);
      }
    }
    return message.toString();
  }

  private int refuse(String message) {
    PrintWriter err = spec.commandLine().getErr();
    err.println("kuik plan: " + message);
    err.flush();
    return 2;
  }

  private PlanSettings settings() {
    List<PlanSettings.Instance> parsed = new ArrayList<>();
    for (String instance : instances.isEmpty() ? List.of("kuik-system") : instances) {
      String namespace = instance;
      boolean byDefault = namespacesByDefault;
      int equals = instance.indexOf('=');
      if (equals >= 0) {
        namespace = instance.substring(0, equals);
        String value = instance.substring(equals + 1);
        if (!value.equals("true") && !value.equals("false")) {
          throw bad("Invalid --instance '" + instance + "': after = comes true or false");
        }
        byDefault = Boolean.parseBoolean(value);
      }
      if (!DNS_LABEL.matcher(namespace).matches()) {
        throw bad("Invalid --instance '" + instance + "': '" + namespace + "' is no namespace");
      }
      parsed.add(new PlanSettings.Instance(namespace, byDefault));
    }
    for (String host : registriesDown) {
      if (!REGISTRY_HOST.matcher(host).matches()) {
        throw bad("Invalid --registry-down '" + host + "': expected host[:port], as in images");
      }
    }
    try {
      return new PlanSettings(parsed, originalDown, registriesDown);
    } catch (IllegalArgumentException e) {
      throw bad(e.getMessage());
    }
  }

  private ParameterException bad(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /** {@code --output}: the format's name, any case. */
  static final class FormatConverter
      implements picocli.CommandLine.ITypeConverter<PlanOutput.Format> {
    @Override
    public PlanOutput.Format convert(String value) {
      for (PlanOutput.Format format : PlanOutput.Format.values()) {
        if (format.toString().equalsIgnoreCase(value)) {
          return format;
        }
      }
      throw new picocli.CommandLine.TypeConversionException(
          "'" + value + "' is not one of table, json, yaml");
    }
  }
}
