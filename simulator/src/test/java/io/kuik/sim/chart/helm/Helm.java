package io.kuik.sim.chart.helm;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * The {@code helm} command line, run on the chart under test.
 *
 * <p>The chart lives outside this module ({@code ../chart}, or the {@code kuik.chart.dir} system
 * property). Helm itself is not a Maven dependency: when it is not on the PATH, {@link
 * #requireOnPath()} skips the calling test class with a message saying how to install it, so the
 * build still passes on a machine with only a JDK.
 */
final class Helm {

  static final String MISSING_HELM =
      "helm is not on the PATH: the chart tests are skipped. Run .ci/install-helm.sh"
          + " (Helm >= 3.18) to run them.";

  private static final long TIMEOUT_SECONDS = 120;

  private Helm() {}

  private static final AtomicBoolean TOLD_MISSING = new AtomicBoolean();

  /**
   * Skips the calling test (JUnit assumption) when no {@code helm} executable is on the PATH.
   * Called before each test rather than once per class, so that Surefire counts every test as
   * skipped instead of reporting zero tests run.
   */
  static void requireOnPath() {
    boolean found = executable().isPresent();
    if (!found && TOLD_MISSING.compareAndSet(false, true)) {
      // Surefire shows skipped tests only as a count; say why, once, where people look.
      System.err.println("[chart-tests] " + MISSING_HELM);
    }
    assumeTrue(found, MISSING_HELM);
  }

  /** The chart directory under test. */
  static Path chartDir() {
    Path dir = Path.of(System.getProperty("kuik.chart.dir", "../chart")).toAbsolutePath();
    if (!Files.isRegularFile(dir.resolve("Chart.yaml"))) {
      throw new IllegalStateException(
          "no Chart.yaml in " + dir + ": set -Dkuik.chart.dir to the chart's directory");
    }
    return dir.normalize();
  }

  /** {@code helm template <release> <chart> --namespace <ns> [--include-crds] --set ...}. */
  static Result template(ValueSet values, boolean includeCrds) {
    List<String> args =
        new ArrayList<>(List.of("template", values.release(), chartDir().toString()));
    args.addAll(List.of("--namespace", values.namespace()));
    if (includeCrds) {
      args.add("--include-crds");
    }
    args.addAll(values.setFlags());
    return run(args);
  }

  /**
   * The chart's NOTES.txt as {@code helm install} would print it. {@code helm template} never
   * renders NOTES.txt, and {@code helm install --dry-run} wants a cluster, so this renders a copy
   * of the chart with one more template that wraps the notes in a YAML string.
   */
  static String notes(ValueSet values) {
    Path copy = null;
    try {
      copy = Files.createTempDirectory("kuik-chart-notes");
      Path chart = copy.resolve("chart");
      copyTree(chartDir(), chart);
      Files.copy(chart.resolve("templates/NOTES.txt"), chart.resolve("notes-preview.txt"));
      Files.writeString(
          chart.resolve("templates/zz-notes-preview.yaml"),
          "notes: |\n{{ tpl (.Files.Get \"notes-preview.txt\") . | indent 2 }}\n");
      List<String> args =
          new ArrayList<>(
              List.of(
                  "template",
                  values.release(),
                  chart.toString(),
                  "--namespace",
                  values.namespace(),
                  "--show-only",
                  "templates/zz-notes-preview.yaml"));
      args.addAll(values.setFlags());
      String rendered = run(args).stdoutOrFail();
      return RenderedManifests.parse(rendered).all().get(0).path("notes").asString();
    } catch (IOException e) {
      throw new IllegalStateException("cannot copy the chart to render its notes", e);
    } finally {
      deleteTree(copy);
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path source : (Iterable<Path>) paths::iterator) {
        Files.copy(source, to.resolve(from.relativize(source).toString()));
      }
    }
  }

  private static void deleteTree(Path root) {
    if (root == null) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      // A leftover temp directory is harmless; the test result is what matters.
    }
  }

  /** {@code helm lint --strict <chart> --namespace <ns> --set ...}. */
  static Result lint(ValueSet values) {
    List<String> args = new ArrayList<>(List.of("lint", "--strict", chartDir().toString()));
    args.addAll(List.of("--namespace", values.namespace()));
    args.addAll(values.setFlags());
    return run(args);
  }

  private static Result run(List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(executable().orElseThrow(() -> new IllegalStateException(MISSING_HELM)).toString());
    command.addAll(args);
    try {
      Path out = Files.createTempFile("helm-out", ".txt");
      Path err = Files.createTempFile("helm-err", ".txt");
      try {
        // Output goes to files, not pipes, so a large render can never fill a pipe and hang.
        Process process =
            new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          throw new IllegalStateException(
              "helm did not finish in " + TIMEOUT_SECONDS + " s: " + String.join(" ", command));
        }
        return new Result(
            command,
            process.exitValue(),
            Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
      } finally {
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + String.join(" ", command), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running helm", e);
    }
  }

  private static Optional<Path> executable() {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(dir, "helm");
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** What one helm run printed and how it ended. */
  record Result(List<String> command, int exitCode, String stdout, String stderr) {

    boolean succeeded() {
      return exitCode == 0;
    }

    /** The output, or a failure naming the command and its error output. */
    String stdoutOrFail() {
      if (!succeeded()) {
        throw new AssertionError(describe());
      }
      return stdout;
    }

    String describe() {
      return String.join(" ", command)
          + " exited with "
          + exitCode
          + "\n--- stderr\n"
          + stderr
          + "--- stdout\n"
          + stdout;
    }
  }
}
