package io.kuik.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kuik simulate explore} as a user runs it, in a JVM of its own: its report on standard
 * output, and on standard error only warnings, in the CLIs' one-line text format. Its simulated
 * syncers warn at every apply an injected API outage refuses; those lines once made 655 lines of
 * stderr for five seeds.
 */
class SimulateOutputTest {

  @TempDir Path folder;

  @Test
  void twoSeedsOfAHundredStepsPrintTheirReportAndAtMostFortyLinesInAll()
      throws IOException, InterruptedException {
    Path out = folder.resolve("out.txt");
    Path err = folder.resolve("err.txt");
    Process explore =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp",
                    System.getProperty("java.class.path"),
                    "io.kuik.cli.Main",
                    "simulate",
                    "explore",
                    "--seeds",
                    "2",
                    "--steps",
                    "100"))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();

    boolean ended = explore.waitFor(10, TimeUnit.MINUTES);
    if (!ended) {
      explore.destroyForcibly();
    }

    assertTrue(ended, "explore did not end within 10 minutes");
    List<String> report = Files.readAllLines(out);
    List<String> errors = Files.readAllLines(err);
    assertEquals(0, explore.exitValue(), String.join("\n", errors));
    assertTrue(report.contains("2 of 2 seeds passed"), String.join("\n", report));
    assertTrue(report.size() + errors.size() <= 40, report.size() + errors.size() + " lines");
    for (String line : errors) {
      assertTrue(line.matches("\\S+Z (WARN |ERROR) \\S+ .*"), "not a warning line: " + line);
    }
    for (String line : report) {
      assertTrue(line.length() <= 2_000, line.length() + " characters");
    }
  }
}
