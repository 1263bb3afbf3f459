package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The Helm chart's syncer command line ({@code kuik.syncer.args} in chart/templates/_helpers.tpl)
 * names exactly the CLI's flags, and with the chart's default values it parses.
 */
class ChartSyncerArgsTest {

  private static final Path CHART = Path.of(System.getProperty("kuik.chart.dir", "../chart"));
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([.A-Za-z0-9]+)\\s*}}");

  @Test
  void theChartPassesEveryFlagOfTheSyncerAndNoOther() throws IOException {
    Set<String> passed = new TreeSet<>();
    for (String arg : chartArgs()) {
      if (arg.startsWith("--")) {
        passed.add(arg.substring(0, arg.indexOf('=') < 0 ? arg.length() : arg.indexOf('=')));
      }
    }

    Set<String> known = new TreeSet<>();
    for (OptionSpec option : syncerCommand().getCommandSpec().options()) {
      if (!option.hidden() && !option.usageHelp() && !option.versionHelp()) {
        known.add(option.longestName());
      }
    }
    assertEquals(known, passed);
    assertEquals(new TreeSet<>(SyncerCommandLineTest.FLAGS), passed);
  }

  @Test
  void theChartsDefaultValuesParse() throws IOException {
    JsonNode values = YAMLMapper.builder().build().readTree(CHART.resolve("values.yaml").toFile());
    List<String> args = new ArrayList<>();
    for (String arg : chartArgs()) {
      args.add(render(arg, values));
    }
    assertEquals("syncer", args.get(0));

    CommandLine commandLine = Main.commandLine();
    commandLine.parseArgs(args.toArray(String[]::new));
    SyncerCommand syncer = (SyncerCommand) commandLine.getSubcommands().get("syncer").getCommand();
    assertEquals("kuik-system", syncer.settings().syncer().clusterResourceNamespace());
  }

  /** The list items of the kuik.syncer.args helper, placeholders left in. */
  private static List<String> chartArgs() throws IOException {
    String helpers = Files.readString(CHART.resolve("templates/_helpers.tpl"));
    int start = helpers.indexOf("define \"kuik.syncer.args\"");
    assertTrue(start >= 0, "kuik.syncer.args is defined in _helpers.tpl");
    int end = helpers.indexOf("{{- end }}", start);
    List<String> args = new ArrayList<>();
    for (String line : helpers.substring(start, end).split("\n")) {
      String item = line.trim();
      if (item.startsWith("- ")) {
        args.add(item.substring(2).trim());
      }
    }
    return args;
  }

  /** Fills {{ .Release.Namespace }} and {{ .Values.a.b }} as a default install would. */
  private static String render(String arg, JsonNode values) {
    Matcher matcher = PLACEHOLDER.matcher(arg);
    StringBuilder rendered = new StringBuilder();
    while (matcher.find()) {
      String path = matcher.group(1);
      String value;
      if (path.equals(".Release.Namespace")) {
        value = "kuik-system";
      } else if (path.startsWith(".Values.")) {
        JsonNode node = values;
        for (String key : path.substring(".Values.".length()).split("\\.")) {
          node = node.path(key);
        }
        assertTrue(
            !node.isMissingNode() && node.isValueNode(), path + " is a value in values.yaml");
        value = node.asString();
      } else {
        throw new AssertionError("unexpected placeholder " + path + " in " + arg);
      }
      matcher.appendReplacement(rendered, Matcher.quoteReplacement(value));
    }
    matcher.appendTail(rendered);
    return rendered.toString();
  }

  private static CommandLine syncerCommand() {
    return Main.commandLine().getSubcommands().get("syncer");
  }
}
