package io.kuik.cli;

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
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The command line a helper of chart/templates/_helpers.tpl writes (e.g. {@code
 * kuik.webhook.args}): its list items with the placeholders left in, the flags they name, and the
 * items rendered as a default install would (Release.Name {@code kuik}, Release.Namespace {@code
 * kuik-system}, values from values.yaml).
 */
final class ChartHelperArgs {

  static final Path CHART = Path.of(System.getProperty("kuik.chart.dir", "../chart"));
  private static final Pattern PLACEHOLDER =
      Pattern.compile("\\{\\{\\s*(?:join \"(.)\" )?([.A-Za-z0-9]+)\\s*}}");

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

  /** The helper's items as a default install renders them. */
  static List<String> rendered(String helper) throws IOException {
    JsonNode values = YAMLMapper.builder().build().readTree(CHART.resolve("values.yaml").toFile());
    List<String> args = new ArrayList<>();
    for (String arg : items(helper)) {
      args.add(render(arg, values));
    }
    return args;
  }

  private static String render(String arg, JsonNode values) {
    Matcher matcher = PLACEHOLDER.matcher(arg);
    StringBuilder rendered = new StringBuilder();
    while (matcher.find()) {
      String separator = matcher.group(1);
      String path = matcher.group(2);
      String value;
      if (path.equals(".Release.Namespace")) {
        value = "kuik-system";
      } else if (path.equals(".Release.Name")) {
        value = "kuik";
      } else if (path.startsWith(".Values.")) {
        JsonNode node = values;
        for (String key : path.substring(".Values.".length()).split("\\.")) {
          node = node.path(key);
        }
        if (separator != null) {
          assertTrue(node.isArray(), path + " is a list in values.yaml");
          List<String> items = new ArrayList<>();
          node.values().forEach(item -> items.add(item.asString()));
          value = String.join(separator, items);
        } else {
          assertTrue(
              !node.isMissingNode() && node.isValueNode(), path + " is a value in values.yaml");
          value = node.asString();
        }
      } else {
        throw new AssertionError("unexpected placeholder " + path + " in " + arg);
      }
      matcher.appendReplacement(rendered, Matcher.quoteReplacement(value));
    }
    matcher.appendTail(rendered);
    return rendered.toString();
  }
}
