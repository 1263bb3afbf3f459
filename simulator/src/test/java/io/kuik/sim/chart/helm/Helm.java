package io.kuik.sim.chart.helm;

import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.Function;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * Helm 3 run on the chart under test, in-process: helm-java (Maven Central) carries Helm's Go code
 * as a native library for the build machine, so no {@code helm} binary is needed and the chart
 * tests run wherever the JDK does.
 *
 * <p>The chart lives outside this module ({@code ../chart}, or the {@code kuik.chart.dir} system
 * property). Values go through Helm's {@code --set} parser, with its typing: integers, booleans and
 * {@code null} are typed, everything else (a float such as {@code 0.3} included) stays a string, as
 * on the command line.
 */
final class Helm {

  /**
   * The Kubernetes version Helm renders for. Without a cluster Helm's library assumes v1.20, older
   * than the chart's {@code kubeVersion}; {@code helm template} assumes the version its client
   * library was built with.
   */
  static final String KUBE_VERSION = "v1.34.0";

  private Helm() {}

  /** The chart directory under test. */
  static Path chartDir() {
    Path dir = Path.of(System.getProperty("kuik.chart.dir", "../chart")).toAbsolutePath();
    if (!Files.isRegularFile(dir.resolve("Chart.yaml"))) {
      throw new IllegalStateException(
          "no Chart.yaml in " + dir + ": set -Dkuik.chart.dir to the chart's directory");
    }
    return dir.normalize();
  }

  /** {@code helm template <release> <chart> --namespace <ns> --set ...}. */
  static Result template(ValueSet values) {
    return template(chartDir(), values);
  }

  private static Result template(Path chart, ValueSet values) {
    LookupCluster.get();
    TemplateCommand command =
        com.marcnuri.helm.Helm.template(chart.toString())
            .withName(values.release())
            .withNamespace(values.namespace())
            .withKubeVersion(KUBE_VERSION);
    for (ValueSet.Set set : values.parsedSets()) {
      command.set(set.key(), set.value());
    }
    String description = "helm template " + values.release() + " " + chart + values.flags();
    try {
      return Result.success(description, command.call());
    } catch (IllegalStateException e) {
      return Result.failure(description, e.getMessage());
    }
  }

  /**
   * {@code helm lint --strict} with these values. Helm's library lints a chart with its own
   * values.yaml only, so this lints a copy whose values.yaml holds the values Helm computed for the
   * release (the chart's defaults with the {@code --set} pairs applied, read back with {@code
   * toJson .Values}).
   */
  static Result lint(ValueSet values) {
    return withCopy(
        chart -> {
          Result computed = renderExtra(chart, values, "{{ toJson .Values }}");
          if (!computed.succeeded()) {
            return computed;
          }
          write(chart.resolve("values.yaml"), computed.output() + "\n");
          delete(chart.resolve(EXTRA_TEMPLATE));
          LintResult lint = new com.marcnuri.helm.Helm(chart).lint().strict().call();
          String description = "helm lint --strict " + chartDir() + values.flags();
          String messages = String.join("\n", lint.getMessages());
          return lint.isFailed()
              ? Result.failure(description, messages)
              : Result.success(description, messages);
        });
  }

  /**
   * The chart's NOTES.txt as {@code helm install} would print it. {@code helm template} never
   * renders NOTES.txt, so this renders a copy of the chart with one more template that holds the
   * notes rendered through {@code tpl}.
   */
  static String notes(ValueSet values) {
    return withCopy(
            chart -> {
              write(chart.resolve("notes-preview.txt"), read(chart.resolve("templates/NOTES.txt")));
              return renderExtra(
                  chart, values, "|\n{{ tpl (.Files.Get \"notes-preview.txt\") . | indent 2 }}");
            })
        .orFail();
  }

  /**
   * What {@link #templateWithHooks} writes instead of the key {@code helm.sh/hook}, so that Helm's
   * library keeps a hook among the manifests.
   */
  static final String HOOK_STAND_IN = "kuik.test/helm-hook";

  /**
   * {@link #template}, hooks included, as {@code helm template} prints them after the manifests.
   * Helm's library returns a release's manifest and leaves its hooks out (it tells them apart by
   * the annotation {@code helm.sh/hook}), so this renders a copy of the chart whose templates and
   * files name that annotation {@link #HOOK_STAND_IN}; the other {@code helm.sh/hook-*} annotations
   * keep their names.
   */
  static Result templateWithHooks(ValueSet values) {
    return withCopy(
        chart -> {
          for (String folder : new String[] {"templates", "files"}) {
            try (Stream<Path> files = Files.walk(chart.resolve(folder))) {
              for (Path file : files.filter(Files::isRegularFile).toList()) {
                String text = read(file);
                String renamed = text.replaceAll("helm\\.sh/hook(?=[\"':])", HOOK_STAND_IN);
                if (!renamed.equals(text)) {
                  write(file, renamed);
                }
              }
            } catch (IOException e) {
              throw new IllegalStateException("cannot read the chart's " + folder, e);
            }
          }
          return template(chart, values);
        });
  }

  private static final String EXTRA_TEMPLATE = "templates/zz-extra.yaml";
  private static final String EXTRA_KEY = "kuikExtraOutput";

  /**
   * Renders one more template in the copy {@code chart}, {@code kuikExtraOutput: <body>}, and
   * returns what the body gave (Helm's library has no {@code --show-only}): a string as it is, any
   * other value as JSON.
   */
  private static Result renderExtra(Path chart, ValueSet values, String body) {
    write(chart.resolve(EXTRA_TEMPLATE), EXTRA_KEY + ": " + body + "\n");
    Result render = template(chart, values);
    if (!render.succeeded()) {
      return render;
    }
    for (JsonNode document : RenderedManifests.parse(render.output()).all()) {
      JsonNode extra = document.get(EXTRA_KEY);
      if (extra != null) {
        return Result.success(
            render.command(), extra.isString() ? extra.asString() : extra.toString());
      }
    }
    throw new AssertionError("the extra template is not in the output:\n" + render.output());
  }

  private static <T> T withCopy(Function<Path, T> use) {
    Path copy = null;
    try {
      copy = Files.createTempDirectory("kuik-chart");
      Path chart = copy.resolve("chart");
      copyTree(chartDir(), chart);
      return use.apply(chart);
    } catch (IOException e) {
      throw new IllegalStateException("cannot copy the chart", e);
    } finally {
      deleteTree(copy);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + file, e);
    }
  }

  private static void write(Path file, String text) {
    try {
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new IllegalStateException("cannot write " + file, e);
    }
  }

  private static void delete(Path file) {
    try {
      Files.delete(file);
    } catch (IOException e) {
      throw new IllegalStateException("cannot delete " + file, e);
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

  /**
   * What one Helm command gave: its output when it succeeded, its error when it failed.
   *
   * @param command the command line it stands for, for messages
   */
  record Result(String command, boolean succeeded, String output, String error) {

    static Result success(String command, String output) {
      return new Result(command, true, output, "");
    }

    static Result failure(String command, String error) {
      return new Result(command, false, "", error == null ? "" : error);
    }

    /**
     * Whether the error names this value, as {@code webhook.port} or as the JSON pointer {@code
     * /webhook/port} Helm's schema validation gives.
     */
    boolean reports(String key) {
      return error.contains(key) || error.contains("/" + key.replace('.', '/'));
    }

    /** The output, or a failure naming the command and its error. */
    String orFail() {
      if (!succeeded) {
        throw new AssertionError(describe());
      }
      return output;
    }

    String describe() {
      return command
          + (succeeded ? " succeeded" : " failed")
          + "\n--- error\n"
          + error
          + "\n--- output\n"
          + output;
    }
  }
}
