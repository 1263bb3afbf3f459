package io.kuik.kube.syncer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The credential provider plugins the tests ship (src/test/resources/plugins, whose README says
 * what each does), copied into a directory with their executable bit, as the chart's init container
 * puts a plugin in the syncer's plugin directory.
 */
final class TestPlugins {

  static final List<String> ALL =
      List.of(
          "well-behaved",
          "slow",
          "crashing",
          "lying",
          "elsewhere",
          "gigabytes",
          "garbage",
          "bloated",
          "unstartable");

  private TestPlugins() {}

  /** Every test plugin, executable, in {@code directory}; returns it. */
  static Path into(Path directory) {
    for (String name : ALL) {
      try (InputStream script = TestPlugins.class.getResourceAsStream("/plugins/" + name)) {
        Path target = directory.resolve(name);
        Files.copy(script, target);
        if (!target.toFile().setExecutable(true)) {
          throw new IOException("cannot make " + target + " executable");
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return directory;
  }
}
