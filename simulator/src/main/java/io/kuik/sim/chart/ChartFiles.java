package io.kuik.sim.chart;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * The repository's Helm chart, as the simulator reads it: the files under {@code chart/files} that
 * the chart's templates include with {@code tpl (.Files.Get ...) .}, rendered for a {@link Release}
 * and parsed into objects. The simulator never keeps its own copy of the policy or the RBAC: it
 * loads them from the chart folder, or from the copy of {@code chart/files} and {@code chart/crds}
 * that the build puts in the simulator's jar ({@value #BUNDLED}), so a change to the chart changes
 * what the simulated cluster enforces.
 */
public final class ChartFiles {

  /** The system property that points at the chart folder, overriding the search. */
  public static final String CHART_DIR_PROPERTY = "kuik.chart.dir";

  /** Where the simulator's jar carries the chart's files and CRDs, copied at build time. */
  public static final String BUNDLED = "kuik-chart/";

  /** The ValidatingAdmissionPolicy bounding the syncer's writes, and its binding. */
  public static final String ADMISSION_POLICY = "files/admission-policy.yaml";

  /** The secret-syncer's ClusterRole, Role and bindings. */
  public static final String SYNCER_RBAC = "files/syncer-rbac.yaml";

  /** The pod webhook's ClusterRole, Role and bindings. */
  public static final String WEBHOOK_RBAC = "files/webhook-rbac.yaml";

  /** The chart folder; null for the copy in the jar. */
  private final Path directory;

  private ChartFiles(Path directory) {
    this.directory = directory == null ? null : directory.toAbsolutePath().normalize();
  }

  /**
   * The chart named by the system property {@value #CHART_DIR_PROPERTY}, or else the {@code chart/}
   * folder found by walking up from the working directory, or else the copy in the simulator's jar,
   * so that the runnable jar works from any folder.
   *
   * @throws ChartException when none is found
   */
  public static ChartFiles locate() {
    return locate(Path.of(System.getProperty("user.dir")), System.getProperty(CHART_DIR_PROPERTY));
  }

  static ChartFiles locate(Path start, String chartDirProperty) {
    if (chartDirProperty != null && !chartDirProperty.isBlank()) {
      Path dir = Path.of(chartDirProperty);
      if (!isChart(dir)) {
        throw new ChartException(
            CHART_DIR_PROPERTY
                + "="
                + chartDirProperty
                + " holds neither Chart.yaml nor files/: point it at the repository's chart folder");
      }
      return new ChartFiles(dir);
    }
    for (Path dir = start.toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
      if (isChart(dir.resolve("chart"))) {
        return new ChartFiles(dir.resolve("chart"));
      }
    }
    if (bundledResource(SYNCER_RBAC) != null) {
      return new ChartFiles(null);
    }
    throw new ChartException(
        "no chart/ folder (with Chart.yaml or files/) in "
            + start.toAbsolutePath()
            + " or any folder above it, and no copy in the simulator's jar: run from inside the"
            + " repository, or set -D"
            + CHART_DIR_PROPERTY
            + "=<path to chart>");
  }

  /** The chart at a known folder. */
  public static ChartFiles at(Path directory) {
    if (!isChart(directory)) {
      throw new ChartException(directory + " holds neither Chart.yaml nor files/");
    }
    return new ChartFiles(directory);
  }

  private static boolean isChart(Path dir) {
    return Files.isRegularFile(dir.resolve("Chart.yaml"))
        || Files.isDirectory(dir.resolve("files"));
  }

  /** The copy of the chart's files in the simulator's jar (a build puts it there). */
  public static ChartFiles bundled() {
    if (bundledResource(SYNCER_RBAC) == null) {
      throw new ChartException(
          "no copy of the chart in the classpath (" + BUNDLED + "): build the simulator module");
    }
    return new ChartFiles(null);
  }

  /** The chart folder, or empty for the copy in the simulator's jar. */
  public Optional<Path> directory() {
    return Optional.ofNullable(directory);
  }

  /**
   * The file's text as the chart holds it, e.g. a CRD of {@code crds/}, which Helm never renders.
   */
  public String text(String file) {
    return read(file);
  }

  /** The file's text with the release's name and namespace filled in. */
  public String render(String file, Release release) {
    return ReleaseTemplate.render(read(file), release, file);
  }

  /** The file rendered for the release, one object per YAML document. */
  public List<ObjectNode> load(String file, Release release) {
    return YamlDocuments.parse(render(file, release), file);
  }

  private String read(String file) {
    if (directory == null) {
      return readBundled(file);
    }
    Path path = directory.resolve(file).normalize();
    if (!path.startsWith(directory)) {
      throw new ChartException(file + " is outside the chart folder " + directory);
    }
    if (!Files.isRegularFile(path)) {
      throw new ChartException(file + " not found in the chart folder " + directory);
    }
    try {
      return Files.readString(path);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
  }

  private static String readBundled(String file) {
    if (file.contains("..")) {
      throw new ChartException(file + " is outside the chart");
    }
    try (InputStream in = bundledResource(file)) {
      if (in == null) {
        throw new ChartException(file + " not found in the chart copied into the simulator's jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + BUNDLED + file, e);
    }
  }

  private static InputStream bundledResource(String file) {
    return ChartFiles.class.getClassLoader().getResourceAsStream(BUNDLED + file);
  }
}
