package io.kuik.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The same seed and script give the same trace, byte for byte, in this JVM and in another. */
class DeterminismTest {

  private static final long SEED = 20260101L;

  @Test
  void oneSeedGivesOneTraceInProcess() {
    assertEquals(DeterminismScenario.run(SEED), DeterminismScenario.run(SEED));
  }

  @Test
  void anotherSeedGivesAnotherTrace() {
    assertNotEquals(DeterminismScenario.run(SEED), DeterminismScenario.run(SEED + 1));
  }

  @Test
  void oneSeedGivesOneTraceInAForkedJvm() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                DeterminismScenario.class.getName(),
                Long.toString(SEED))
            .redirectErrorStream(true)
            .start();
    String output;
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      output = out.lines().reduce("", (a, b) -> b);
    }
    assertEquals(true, process.waitFor(120, TimeUnit.SECONDS), "the forked JVM finished");
    assertEquals(0, process.exitValue(), output);
    assertEquals(DeterminismScenario.run(SEED), output.strip());
  }
}
