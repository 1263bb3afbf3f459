package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The command line a helper of chart/templates/_helpers.tpl writes (e.g. {@code
 * kuik.webhook.args}): its list items with the placeholders left in, the flags they name, and the
 * command line Helm renders for a default install (release {@code kuik} in {@code kuik-system}).
 */
final class ChartHelperArgs {

  static final Path CHART = Path.of(System.getProperty("kuik.chart.dir", "../chart"));

  private ChartHelperArgs() {}

  /** The list items of the helper, placeholders left in. */
  static List<String> items(String helper) throws IOException {
    String helpers = Files.readString(CHART.resolve("templates/_helpers.tpl"));
    int start = helpers.indexOf("define \"" + helper + "\"");
    assertTrue(start >= 0, helper + " is defined in _helpers.tpl");
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

  /** The flags the helper passes, without their values. */
  static Set<String> flags(String helper) throws IOException {
    Set<String> passed = new TreeSet<>();
    for (String arg : items(helper)) {
      if (arg.startsWith("--")) {
        passed.add(arg.substring(0, arg.indexOf('=') < 0 ? arg.length() : arg.indexOf('=')));
      }
    }
    return passed;
  }

  /**
   * The helper's items as a default install renders them ({@code helm template kuik --namespace
   * kuik-system}), by Helm itself: the command line of the Deployment that runs the command.
   */
  static List<String> rendered(String helper) throws IOException {
    String command = helper.split("\\.")[1];
    return io.kuik.kube.ChartFileRender.args(command, "kuik", "kuik-system");
  }
}
