package io.kuik.sim.explore;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every failing explorer run kept in {@value Regressions#FOLDER} replays, on the code as it is, to
 * a pass: the bug it once caught stays gone. Each is the script {@code simulate explore
 * --regressions} wrote after shrinking the run.
 */
class RegressionsTest {

  static List<Path> regressions() throws IOException, URISyntaxException {
    Path folder = Path.of(RegressionsTest.class.getResource("/regressions").toURI());
    try (Stream<Path> files = Files.list(folder)) {
      List<Path> all = files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
      assertFalse(all.isEmpty(), "no regression in " + folder);
      return all;
    }
  }

  @ParameterizedTest(name = "{0} passes")
  @MethodSource("regressions")
  void aKeptRegressionPassesOnTheCodeAsItIs(Path file) throws IOException {
    Explorer.Outcome outcome =
        Regressions.replay(Files.readString(file), Regressions.FOLDER + "/" + file.getFileName())
            .run();

    assertTrue(outcome.passed(), outcome::report);
    assertTrue(outcome.actions() > 0, "a regression with no action replays nothing but the setup");
  }
}
