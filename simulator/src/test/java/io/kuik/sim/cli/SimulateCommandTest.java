package io.kuik.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.cli.Main;
import io.kuik.sim.explore.Explorer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * {@code kuik simulate} as a person types it: the command a failing run prints replays the same
 * trace, and a bad argument exits 2 with a message that names it, never a stack trace.
 */
class SimulateCommandTest {

  private static final Pattern HASH = Pattern.compile("trace hash ([0-9a-f]{64})");

  private record Run(int exit, String out, String err) {
    Optional<String> traceHash() {
      Matcher m = HASH.matcher(out);
      return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }
  }

  private static Run kuik(List<String> args) {
    CommandLine commandLine = Main.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int exit = commandLine.execute(args.toArray(String[]::new));
    return new Run(exit, out.toString(), err.toString());
  }

  private static Run kuik(String... args) {
    return kuik(Arrays.asList(args));
  }

  /** The arguments after {@code kuik} (or the jar) on a report's {@code reproduce:} line. */
  private static List<String> reproduceArguments(String report) {
    String line =
        report
            .lines()
            .filter(l -> l.startsWith("reproduce: "))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no reproduce line in:\n" + report));
    String command = line.substring(line.indexOf(" simulate ") + 1, line.indexOf("   (trace hash"));
    return List.of(command.split(" "));
  }

  @Test
  void theCommandAFailingRunPrintsReplaysTheSameTraceHash() {
    Explorer.Outcome failing = null;
    for (long seed = 1; seed <= 10 && failing == null; seed++) {
      Explorer.Outcome outcome = Explorer.exploreWithSyncerGrace(seed, 80, Duration.ofHours(3));
      failing = outcome.passed() ? null : outcome;
    }
    assertTrue(failing != null, "no seed of 1..10 caught a 3-hour grace");

    List<String> printed = reproduceArguments(failing.report());
    assertTrue(
        printed.contains("--syncer-grace-minutes"), "the grace is part of the run: " + printed);
    Run replay = kuik(printed);

    assertEquals(1, replay.exit(), replay.err());
    assertEquals(Optional.of(failing.traceHash()), replay.traceHash(), replay.out());
  }

  @Test
  void aPassingRunsReplayArgumentsGiveItsTraceHash() {
    Explorer.Outcome passing = Explorer.explore(2, 20);
    assertTrue(passing.passed(), passing.report());

    Run replay = kuik(passing.replayArguments());

    assertEquals(0, replay.exit(), replay.err());
    assertTrue(replay.out().startsWith(passing.banner()), replay.out());
    assertEquals(Optional.of(passing.traceHash()), replay.traceHash(), replay.out());
  }

  @Test
  void optionsTakeTheirValueAfterASpaceOrAnEqualsSign() {
    Run spaced = kuik("simulate", "replay", "--seed", "2", "--steps", "5");
    Run joined = kuik("simulate", "replay", "--seed=2", "--steps=5");

    assertEquals(0, joined.exit(), joined.err());
    assertTrue(spaced.traceHash().isPresent(), spaced.out());
    assertEquals(spaced.traceHash(), joined.traceHash());
  }

  @ParameterizedTest(name = "if kuik {0}, expect exit 2 saying {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "simulate explore --seed abc | '--seed'",
        "simulate explore --bogus 1 | Unknown options: '--bogus'",
        "simulate replay --steps -1 | --steps must be 0 or more",
        "simulate explore --seeds 0 | --seeds must be 1 or more",
        "simulate replay --syncer-grace-minutes -5 | --syncer-grace-minutes must be 0 or more",
        "simulate bench --only=kuik,nobody | unknown contender 'nobody'",
        "simulate bench 0 | a SIZE must be 1 or more",
        "simulate bench ten | 'ten'",
        "simulate | Missing a command",
        "simulate replay --script /nonexistent/run.yaml | --script /nonexistent/run.yaml",
      })
  void aBadArgumentExitsTwoWithAMessageAndNoStackTrace(String args, String message) {
    Run run = kuik(args.split(" "));

    assertEquals(2, run.exit(), run.err());
    assertTrue(run.err().contains(message), run.err());
    assertFalse(run.err().contains("\tat ") || run.err().contains("Exception"), run.err());
    assertEquals("", run.out());
  }

  /**
   * A failing run is shrunk, kept as a script file, and {@code replay --script} of that file fails
   * the same way (the syncer's wrong grace is part of the script).
   */
  @Test
  void aFailingRunIsShrunkAndKeptAsAScriptThatReplaysTheFailure(@TempDir Path folder)
      throws IOException {
    Run explore =
        kuik(
            "simulate",
            "explore",
            "--seed",
            "12",
            "--steps",
            "40",
            "--syncer-grace-minutes",
            "10",
            "--regressions",
            folder.toString());

    assertEquals(1, explore.exit(), explore.err());
    Matcher shrunk = Pattern.compile("shrunk: (\\d+) actions -> (\\d+) in").matcher(explore.out());
    assertTrue(shrunk.find(), explore.out());
    assertTrue(
        Integer.parseInt(shrunk.group(2)) < Integer.parseInt(shrunk.group(1)), shrunk.group());
    Path kept = folder.resolve("seed-12-not-released-before-the-grace.yaml");
    assertTrue(explore.out().contains("kept as a regression: " + kept), explore.out());
    assertTrue(Files.readString(kept).startsWith("# A failing explorer run"), kept.toString());

    Run replay = kuik("simulate", "replay", "--script", kept.toString());

    assertEquals(1, replay.exit(), replay.err());
    assertTrue(
        replay.out().contains("not-released-before-the-grace: team-"),
        "the same failure: " + replay.out());
    assertTrue(
        replay.out().contains("reproduce: kuik simulate replay --script " + kept), replay.out());
  }

  @Test
  void aFileThatIsNoScriptExitsTwoNamingIt(@TempDir Path folder) throws IOException {
    Path file = Files.writeString(folder.resolve("pod.yaml"), "apiVersion: v1\nkind: Pod\n");

    Run replay = kuik("simulate", "replay", "--script", file.toString());

    assertEquals(2, replay.exit(), replay.err());
    assertTrue(replay.err().contains(file + ": not an explorer script"), replay.err());
    assertTrue(replay.err().contains("'setup' is missing"), replay.err());
  }

  @Test
  void helpListsEveryFlag() {
    List<String> missing = new ArrayList<>();
    String[][] expected = {
      {
        "explore",
        "--seed",
        "--steps",
        "--seeds",
        "--syncer-grace-minutes",
        "--shrink",
        "--regressions",
        "--help"
      },
      {"replay", "--seed", "--steps", "--syncer-grace-minutes", "--script", "--help"},
      {"bench", "SIZE", "--only", "--help"},
    };
    for (String[] command : expected) {
      Run help = kuik("simulate", command[0], "--help");
      assertEquals(0, help.exit(), help.err());
      for (int i = 1; i < command.length; i++) {
        if (!help.out().contains(command[i])) {
          missing.add(command[0] + " " + command[i]);
        }
      }
    }
    assertEquals(List.of(), missing);
  }
}
