package io.kuik.sim.explore;

import io.kuik.sim.check.Violation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Failing explorer runs kept as regressions: shrunk ({@link Shrinker}), written as a script file
 * ({@link ScriptFile}) into a folder, the repository's being {@value #FOLDER}, where a test replays
 * every one of them on each build and expects it to pass.
 */
public final class Regressions {

  /** Where the repository keeps them, from its root. */
  public static final String FOLDER = "simulator/src/test/resources/regressions";

  private Regressions() {}

  /** The file name a failing run is kept under: its seed and the invariant it broke. */
  public static String fileName(Explorer.Outcome failing) {
    return "seed-" + failing.seed() + "-" + violation(failing).invariant() + ".yaml";
  }

  /** The shrunk run as a regression file's text, with what it caught on top. */
  public static String text(Explorer.Outcome failing, Shrinker.Result shrunk) {
    Violation violation = violation(failing);
    String comment =
        "A failing explorer run kept as a regression: seed "
            + failing.seed()
            + ", "
            + failing.steps()
            + " steps, the syncer's grace "
            + failing.syncerGrace().toMinutes()
            + " minutes.\n"
            + "It broke "
            + violation.invariant()
            + ": "
            + violation.message().lines().findFirst().orElse("")
            + "\nShrunk from "
            + shrunk.before()
            + " to "
            + shrunk.after()
            + " actions in "
            + shrunk.replays()
            + " replays"
            + (shrunk.exhausted() ? " (the replay budget ran out first)" : "")
            + ". Every build replays it and expects it to pass;\n"
            + "by hand: kuik simulate replay --script <this file>";
    return ScriptFile.write(shrunk.script(), comment);
  }

  /** Writes the regression into {@code folder}; returns the file. */
  public static Path write(Path folder, Explorer.Outcome failing, Shrinker.Result shrunk) {
    try {
      Files.createDirectories(folder);
      Path file = folder.resolve(fileName(failing));
      Files.writeString(file, text(failing, shrunk));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("could not write the regression into " + folder, e);
    }
  }

  /**
   * An explorer run of the script a regression file holds.
   *
   * @param origin names the file in messages and in the report's replay command
   * @throws IllegalArgumentException when the text is not a script
   */
  public static Explorer replay(String text, String origin) {
    return Explorer.replaying(ScriptFile.read(text, origin), origin);
  }

  private static Violation violation(Explorer.Outcome failing) {
    return failing
        .violation()
        .orElseThrow(() -> new IllegalArgumentException("a passing run is no regression"));
  }
}
