package io.kuik.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.cli.Main;
import io.kuik.sim.explore.Explorer;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code kuik simulate} shows its progress as it goes: a seed's banner reaches the terminal before
 * the seed runs, its report when it ends, the shrinker's start before it shrinks. The command's
 * output here is buffered and never flushed by the test, as a pipe to {@code tee} or a CI log is,
 * so what the reader sees is exactly what the command flushed, chunk by chunk.
 */
class SimulateProgressTest {

  /** Every flush of the command's output, as the reader received it. */
  private static final class Flushes extends Writer {
    final List<String> chunks = new ArrayList<>();
    private final StringBuilder pending = new StringBuilder();

    @Override
    public void write(char[] buffer, int offset, int length) {
      pending.append(buffer, offset, length);
    }

    @Override
    public void flush() {
      if (!pending.isEmpty()) {
        chunks.add(pending.toString());
        pending.setLength(0);
      }
    }

    @Override
    public void close() {}
  }

  private record Run(int exit, List<String> chunks) {}

  private static Run kuik(String... args) {
    CommandLine commandLine = Main.commandLine();
    Flushes out = new Flushes();
    commandLine.setOut(new PrintWriter(new BufferedWriter(out, 1 << 20), false));
    commandLine.setErr(new PrintWriter(Writer.nullWriter()));
    return new Run(commandLine.execute(args), out.chunks);
  }

  private static String banner(long seed, int steps, int graceMinutes) {
    return Explorer.of(seed, steps, Duration.ofMinutes(graceMinutes)).banner() + "\n";
  }

  @Test
  void eachSeedsBannerIsShownBeforeItRunsAndTheTallyOfSeveralSeedsLast() {
    Run two = kuik("simulate", "explore", "--seed", "1", "--seeds", "2", "--steps", "3");
    Run one = kuik("simulate", "explore", "--seed", "1", "--steps", "3");

    assertEquals(0, two.exit(), "" + two.chunks());
    assertEquals(5, two.chunks().size(), "" + two.chunks());
    assertEquals(banner(1, 3, 15), two.chunks().get(0));
    assertTrue(two.chunks().get(1).contains("trace hash"), two.chunks().get(1));
    assertEquals(banner(2, 3, 15), two.chunks().get(2));
    assertTrue(two.chunks().get(3).contains("trace hash"), two.chunks().get(3));
    assertEquals("2 of 2 seeds passed\n", two.chunks().get(4));
    assertEquals(0, one.exit());
    assertEquals(two.chunks().subList(0, 2), one.chunks(), "one seed: no tally");
  }

  @Test
  void aFailingSeedIsTalliedShrunkAfterSayingSoAndItsPrintedScriptReplaysTheFailure(
      @TempDir Path folder) throws IOException {
    Run tally =
        kuik(
            "simulate",
            "explore",
            "--seed",
            "12",
            "--seeds",
            "2",
            "--steps",
            "40",
            "--syncer-grace-minutes",
            "10");
    Run shrunk =
        kuik(
            "simulate",
            "explore",
            "--seed",
            "12",
            "--steps",
            "40",
            "--syncer-grace-minutes",
            "10",
            "--shrink");

    assertEquals(1, tally.exit(), "" + tally.chunks());
    assertEquals("1 of 2 seeds passed; failed: [12]\n", tally.chunks().get(4));
    assertEquals(1, shrunk.exit(), "" + shrunk.chunks());
    assertEquals(4, shrunk.chunks().size(), "" + shrunk.chunks());
    assertEquals(banner(12, 40, 10), shrunk.chunks().get(0));
    assertTrue(
        shrunk.chunks().get(2).matches("shrinking: replaying subsets of its \\d+ actions\n"),
        shrunk.chunks().get(2));
    String result = shrunk.chunks().get(3);
    assertTrue(result.startsWith("shrunk: "), result);
    Path script = Files.writeString(folder.resolve("shrunk.yaml"), result.split("\n", 2)[1]);

    Run replay = kuik("simulate", "replay", "--script", script.toString());

    assertEquals(1, replay.exit(), "" + replay.chunks());
    assertEquals(2, replay.chunks().size(), "the banner, then the report: " + replay.chunks());
    assertTrue(replay.chunks().get(1).contains("trace hash"), replay.chunks().get(1));
  }

  @Test
  void noStepAndNoGraceAreARunNotABadArgument() {
    Run still = kuik("simulate", "explore", "--steps", "0", "--syncer-grace-minutes", "0");

    assertTrue(still.exit() != 2, "refused as a bad argument: " + still.chunks());
    assertEquals(banner(1, 0, 0), still.chunks().get(0));
  }
}
