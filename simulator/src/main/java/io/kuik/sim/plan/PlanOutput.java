package io.kuik.sim.plan;

import io.kuik.sim.plan.PlanReport.Candidate;
import io.kuik.sim.plan.PlanReport.InjectedSecret;
import io.kuik.sim.plan.PlanReport.Key;
import io.kuik.sim.plan.PlanReport.PlannedContainer;
import io.kuik.sim.plan.PlanReport.PlannedPod;
import io.kuik.sim.plan.PlanReport.Problem;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** Prints a plan, or the changes between two, as tables, JSON or YAML. */
public final class PlanOutput {

  /** {@code --output}. */
  public enum Format {
    TABLE,
    JSON,
    YAML;

    /** picocli's spelling: lower case. */
    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private static final JsonMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
  private static final YAMLMapper YAML = YAMLMapper.builder().build();

  private PlanOutput() {}

  public static String render(PlanReport report, Format format) {
    switch (format) {
      case JSON:
        return JSON.writeValueAsString(report) + "\n";
      case YAML:
        return YAML.writeValueAsString(report);
      default:
        return table(report);
    }
  }

  /** The changes from {@code before} to {@code after}, then the problems of {@code after}. */
  public static String renderDiff(PlanReport before, PlanReport after, Format format) {
    List<PlanDiff.Change> changes = PlanDiff.between(before, after);
    if (format == Format.TABLE) {
      StringBuilder out = new StringBuilder();
      out.append("CHANGES\n");
      if (changes.isEmpty()) {
        out.append("(none)\n");
      } else {
        TextTable table = new TextTable("CHANGE", "WHERE", "WHAT", "BEFORE", "AFTER");
        for (PlanDiff.Change c : changes) {
          table.row(c.change(), c.where(), c.what(), orDash(c.before()), orDash(c.after()));
        }
        table.appendTo(out);
      }
      out.append('\n');
      problems(out, after.problems());
      return out.toString();
    }
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("changes", changes);
    document.put("after", after);
    return format == Format.JSON
        ? JSON.writeValueAsString(document) + "\n"
        : YAML.writeValueAsString(document);
  }

  static String table(PlanReport report) {
    StringBuilder out = new StringBuilder();
    out.append("kuik instances: ").append(String.join(", ", report.instances())).append("\n\n");

    out.append("SECRETS\n");
    TextTable secrets = new TextTable("NAMESPACE", "SECRET", "OWNER", "AUTHS KEY", "FROM");
    for (InjectedSecret secret : report.secrets()) {
      if (secret.keys().isEmpty()) {
        secrets.row(secret.namespace(), secret.name(), secret.resource(), "(no key)", "");
      }
      boolean first = true;
      for (Key key : secret.keys()) {
        secrets.row(
            first ? secret.namespace() : "",
            first ? secret.name() : "",
            first ? secret.resource() : "",
            key.key(),
            key.from());
        first = false;
      }
    }
    section(out, secrets);
    if (!report.otherNamespaces().isEmpty()) {
      out.append("The same Secrets would also be written in namespaces every cluster has, which\n")
          .append("these manifests do not name: ")
          .append(String.join(", ", report.otherNamespaces()))
          .append(".\n\n");
    }

    out.append("PODS\n");
    TextTable pods = new TextTable("POD", "FROM", "PHASE", "PULL SECRETS ADDED");
    for (PlannedPod pod : report.pods()) {
      pods.row(
          pod.namespace() + "/" + pod.name(),
          pod.source(),
          pod.phase(),
          pod.addedPullSecrets().isEmpty() ? "-" : String.join(", ", pod.addedPullSecrets()));
    }
    section(out, pods);

    out.append("CONTAINERS\n");
    TextTable containers =
        new TextTable("POD", "CONTAINER", "#", "CANDIDATE", "OFFERED BY", "CHOSEN");
    for (PlannedPod pod : report.pods()) {
      String name = pod.namespace() + "/" + pod.name();
      for (PlannedContainer container : pod.containers()) {
        if (container.candidates().isEmpty()) {
          containers.row(name, container.name(), "-", container.image(), container.reason(), "");
          name = "";
          continue;
        }
        int n = 0;
        for (Candidate candidate : container.candidates()) {
          n++;
          containers.row(
              name,
              n == 1 ? container.name() : "",
              String.valueOf(n),
              candidate.image(),
              candidate.offeredBy(),
              candidate.chosen() ? "yes" : "");
          name = "";
        }
      }
    }
    section(out, containers);

    problems(out, report.problems());
    if (!report.ignored().isEmpty()) {
      out.append("\nIGNORED (kinds kuik plan does not read)\n");
      report.ignored().forEach(line -> out.append(line).append('\n'));
    }
    return out.toString();
  }

  private static void problems(StringBuilder out, List<Problem> problems) {
    out.append("PROBLEMS\n");
    TextTable table = new TextTable("OBJECT", "REASON", "MESSAGE");
    problems.forEach(p -> table.row(p.object(), p.reason(), p.message()));
    if (table.isEmpty()) {
      out.append("(none)\n");
    } else {
      table.appendTo(out);
    }
  }

  private static void section(StringBuilder out, TextTable table) {
    if (table.isEmpty()) {
      out.append("(none)\n");
    } else {
      table.appendTo(out);
    }
    out.append('\n');
  }

  private static String orDash(String value) {
    return value == null || value.isEmpty() ? "-" : value;
  }
}
