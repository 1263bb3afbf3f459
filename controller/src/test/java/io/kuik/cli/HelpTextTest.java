package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every command's {@code --help}, at the 80 columns of a terminal: no literal a reader copies (a
 * URL, a label key, {@code host[:port]}) is split over two lines, and no line is wider than the
 * terminal unless it is one such literal.
 */
class HelpTextTest {

  static final int WIDTH = 80;

  static Stream<String> commands() {
    List<String> names = new ArrayList<>();
    names.add("");
    Main.commandLine().getSubcommands().keySet().forEach(names::add);
    return names.stream();
  }

  private static CommandLine command(String name) {
    CommandLine root = Main.commandLine();
    return name.isEmpty() ? root : root.getSubcommands().get(name);
  }

  private static String help(CommandLine command) {
    command.getCommandSpec().usageMessage().autoWidth(false).width(WIDTH);
    return command.getUsageMessage(CommandLine.Help.Ansi.OFF);
  }

  /** The words of the command's texts that hold a dot, a colon, a slash or a bracket. */
  private static List<String> literals(CommandSpec spec) {
    List<String> texts = new ArrayList<>(List.of(spec.usageMessage().description()));
    for (OptionSpec option : spec.options()) {
      texts.addAll(List.of(option.description()));
      texts.add(option.paramLabel());
    }
    List<String> literals = new ArrayList<>();
    for (String text : texts) {
      for (String word : text.split("\\s+")) {
        String literal = word.replaceAll("^[(\"`']+", "").replaceAll("[)\"`',;.:]+$", "");
        if (literal.matches(".*[a-z].*") && literal.matches(".*[.:/\\[].*")) {
          literals.add(literal);
        }
      }
    }
    return literals;
  }

  @ParameterizedTest(name = "kuik {0} --help keeps every literal on one line")
  @MethodSource("commands")
  void keepsEveryLiteralWhole(String name) {
    CommandLine command = command(name);
    String help = help(command);

    List<String> literals = literals(command.getCommandSpec());
    for (String literal : literals) {
      assertTrue(help.contains(literal), "split: " + literal + " in\n" + help);
    }
    List<String> lines = help.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      assertTrue(
          line.length() <= WIDTH || !line.strip().contains(" "),
          "wider than " + WIDTH + ": " + line);
      if (i + 1 < lines.size() && !line.isBlank() && !lines.get(i + 1).isBlank()) {
        String[] before = line.strip().split(" ");
        String joined = before[before.length - 1] + lines.get(i + 1).strip().split(" ")[0];
        assertTrue(
            literals.stream().noneMatch(literal -> literal.contains(joined)),
            "split over two lines: " + joined + " in\n" + help);
      }
    }
  }

  @Test
  void theLiteralsTheIssueFoundSplitAreWhole() {
    String all =
        commands().map(HelpTextTest::command).map(HelpTextTest::help).reduce("", String::concat);
    for (String literal :
        List.of(
            "meta.helm.sh/release-name",
            "kuik.enix.io/pull-secrets-instance",
            "<host[:port],...>",
            "<fullname>-secret-syncer-metrics")) {
      assertTrue(all.contains(literal), literal);
    }
  }

  @Test
  void wrapsAtSpacesOnly() {
    assertEquals(
        List.of("see", "meta.helm.sh/release-name", "or the label"),
        HelpText.wrap("see meta.helm.sh/release-name or the label", 12));
    assertEquals(List.of(""), HelpText.wrap("", 10));
  }

  @Test
  void aLineOfExactlyTheWidthStaysOneLine() {
    assertEquals(List.of("abc de"), HelpText.wrap("abc de", 6));
    assertEquals(List.of("abc", "def"), HelpText.wrap("abc def", 6));
  }

  @Test
  void aFirstWordAsLongAsTheLineOrLongerStartsIt() {
    assertEquals(List.of("abcdef", "gh"), HelpText.wrap("abcdef gh", 6));
    assertEquals(
        List.of("meta.helm.sh/release-name", "or the"),
        HelpText.wrap("meta.helm.sh/release-name or the", 12));
  }

  @Test
  void aShortLineIsOneLineAndALongOneHangsUnderItsText() {
    assertEquals(List.of("  short"), HelpText.wrapHanging("  short", 80));
    assertEquals(
        List.of("  policy  the name", "          of the", "          release"),
        HelpText.wrapHanging("  policy  the name of the release", 18));
  }

  /** Every command but the simulator's, which in this jar take no options and only name it. */
  static Stream<String> commandsWithOptions() {
    return commands().filter(name -> !InSimulatorJar.COMMANDS.contains(name));
  }

  @ParameterizedTest(name = "kuik {0} --help shows its synopsis as [OPTIONS]")
  @MethodSource("commandsWithOptions")
  void everySynopsisIsAbbreviated(String name) {
    String usage = help(command(name)).lines().findFirst().orElseThrow();

    assertTrue(usage.startsWith("Usage: kuik" + (name.isEmpty() ? "" : " " + name)), usage);
    assertTrue(usage.contains("[OPTIONS]"), usage);
    assertFalse(usage.contains("--help"), usage);
  }

  /**
   * An option's description of every length around its column's room: the literal at its end is
   * never split by picocli's own wrapping (after its dot), and no line runs past the terminal.
   */
  @Test
  void anOptionsDescriptionAtTheColumnsEdgeIsWrappedAtSpaces() {
    for (int words = 30; words <= 70; words++) {
      String description = "a".repeat(words) + " x.y";
      CommandSpec spec = CommandSpec.create().name("probe");
      spec.addOption(OptionSpec.builder("--flag").description(description).build());
      String help = help(HelpText.apply(new CommandLine(spec)));

      assertTrue(help.contains(" x.y"), "split at " + words + ":\n" + help);
      help.lines()
          .forEach(line -> assertTrue(line.length() <= WIDTH, "wider than " + WIDTH + ": " + line));
    }
  }
}
