package io.kuik.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kuik simulate bench} in a JVM of its own whose working directory holds no chart: the
 * simulated cluster installs the chart's RBAC and policy from the copy on the classpath, as it does
 * from the runnable jar.
 */
class BenchFromAnyFolderTest {

  @TempDir Path folder;

  @Test
  void benchRunsFromAFolderWithoutTheChart() throws IOException, InterruptedException {
    for (Path dir = folder; dir != null; dir = dir.getParent()) {
      Assumptions.assumeFalse(
          Files.isDirectory(dir.resolve("chart/files")), "the temp folder lies inside a checkout");
    }
    Path out = folder.resolve("out.txt");
    Path err = folder.resolve("err.txt");
    Process bench =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp",
                    System.getProperty("java.class.path"),
                    "io.kuik.cli.Main",
                    "simulate",
                    "bench",
                    "10",
                    "--only=kuik"))
            .directory(folder.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();

    boolean ended = bench.waitFor(10, TimeUnit.MINUTES);
    if (!ended) {
      bench.destroyForcibly();
    }

    assertTrue(ended, "the bench did not end within 10 minutes");
    assertEquals(0, bench.exitValue(), Files.readString(err));
    String table = Files.readString(out);
    assertTrue(table.contains("== 10 namespaces =="), table);
    assertTrue(table.lines().anyMatch(line -> line.startsWith("kuik ")), table);
  }
}
