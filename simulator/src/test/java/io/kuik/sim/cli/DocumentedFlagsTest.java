package io.kuik.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.cli.Main;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The docs say only what {@code --help} shows: every {@code --flag} that README.md,
 * CONTRIBUTING.md, docs/*.md and chart/README.md name is a flag some {@code kuik} command shows in
 * its {@code --help}, or one of another tool the docs run (Helm, kubectl, Velero, Maven, gcloud),
 * listed below. A flag a command hides (for tests only) is not one to tell users of. The decision
 * records are history and may name flags since gone.
 */
class DocumentedFlagsTest {

  /** Flags of the other tools the docs' examples run, each with the tool that takes it. */
  private static final Map<String, String> OTHER_TOOLS =
      Map.ofEntries(
          Map.entry("--set", "helm install, upgrade, template"),
          Map.entry("--namespace", "helm, kubectl"),
          Map.entry("--create-namespace", "helm install"),
          Map.entry("--reuse-values", "helm upgrade"),
          Map.entry("--strict", "helm lint"),
          Map.entry("--server-side", "kubectl apply"),
          Map.entry("--selector", "velero backup create, kubectl"),
          Map.entry("--field-selector", "kubectl get"),
          Map.entry("--overwrite", "kubectl label"),
          Map.entry("--for", "kubectl wait"),
          Map.entry("--type", "kubectl patch"),
          Map.entry("--context", "kubectl"),
          Map.entry("--dry-run", "kubectl run"),
          Map.entry("--show-labels", "kubectl get"),
          Map.entry("--format", "gcloud container clusters describe"),
          Map.entry("--version", "helm, java"));

  private static final Pattern FLAG = Pattern.compile("(?<![\\w-])--[a-z][a-z0-9-]*[a-z0-9]");

  @Test
  void everyFlagTheDocsNameIsOneAKuikCommandShowsOrAnotherToolTakes() {
    Set<String> visible = new TreeSet<>();
    Set<String> hidden = new TreeSet<>();
    collect(Main.commandLine(), visible, hidden);
    hidden.removeAll(visible);

    Map<String, List<String>> unknown = new TreeMap<>();
    for (Path doc : docs()) {
      Matcher flags = FLAG.matcher(read(doc));
      while (flags.find()) {
        String flag = flags.group();
        if (!visible.contains(flag) && !OTHER_TOOLS.containsKey(flag)) {
          String why = hidden.contains(flag) ? " (hidden from --help)" : "";
          unknown
              .computeIfAbsent(flag + why, f -> new ArrayList<>())
              .add(doc.getFileName().toString());
        }
      }
    }

    assertEquals(Map.of(), unknown, "flags the docs name that no kuik --help shows");
  }

  private static void collect(CommandLine command, Set<String> visible, Set<String> hidden) {
    for (OptionSpec option : command.getCommandSpec().options()) {
      for (String name : option.names()) {
        if (name.startsWith("--")) {
          (option.hidden() ? hidden : visible).add(name);
        }
      }
    }
    command.getSubcommands().values().forEach(sub -> collect(sub, visible, hidden));
  }

  /** The repository's root: the first folder up from here that holds the chart. */
  private static Path root() {
    Path dir = Path.of("").toAbsolutePath();
    while (!Files.exists(dir.resolve("chart/Chart.yaml"))) {
      dir = dir.getParent();
    }
    return dir;
  }

  private static List<Path> docs() {
    Path root = root();
    List<Path> docs = new ArrayList<>();
    docs.add(root.resolve("README.md"));
    docs.add(root.resolve("CONTRIBUTING.md"));
    docs.add(root.resolve("chart/README.md"));
    try (Stream<Path> files = Files.list(root.resolve("docs"))) {
      files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return docs;
  }

  private static String read(Path doc) {
    try {
      return Files.readString(doc);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
