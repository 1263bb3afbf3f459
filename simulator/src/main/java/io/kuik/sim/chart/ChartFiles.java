package io.kuik.sim.chart;

import io.kuik.sim.world.object.YamlDocuments;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import tools.jackson.databind.node.ObjectNode;

/**
 * The repository's Helm chart, as the simulator installs it: Helm renders it for a {@link Release}
 * ({@link #render}, in-process), and the simulator installs what that render holds, the RBAC and
 * admission policies it enforces included, and runs each process with the command line the render
 * gives it. The simulator keeps no copy of the policy, the RBAC or a name: a change to the chart
 * changes what the simulated cluster enforces and what each process is told.
 *
 * <p>The whole chart is also {@linkplain #bundled() bundled} in the simulator's jar (copied from
 * {@code chart/} by the build), for the commands that run from the jar with no repository around
 * them ({@code kuik plan}, {@code kuik simulate}).
 */
public final class ChartFiles {

  /** The system property that points at the chart folder, overriding the search. */
  public static final String CHART_DIR_PROPERTY = "kuik.chart.dir";

  /** The ValidatingAdmissionPolicy bounding the syncer's writes, and its binding. */
  public static final String ADMISSION_POLICY = "files/admission-policy.yaml";

  /** The secret-syncer's ClusterRole, Role and bindings. */
  public static final String SYNCER_RBAC = "files/syncer-rbac.yaml";

  /** The pod webhook's ClusterRole, Role and bindings. */
  public static final String WEBHOOK_RBAC = "files/webhook-rbac.yaml";

  /**
   * The RBAC of {@code kuik selftest}, the {@code helm test} hook: created when the test starts,
   * deleted when it ends.
   */
  public static final String SELFTEST_RBAC = "files/selftest-rbac.yaml";

  /**
   * The syncer's delete on Secrets, installed with {@code
   * syncer.ownerReferencesPermissionEnforcement=true}.
   */
  public static final String SYNCER_OWNER_REFERENCES_RBAC =
      "files/syncer-owner-references-rbac.yaml";

  /**
   * The pod-write RBAC of both components, the syncer's Lease for the webhook, and the admission
   * policy that bounds those writes, installed with {@code pullSecretFirst.enabled=true}.
   */
  public static final String PULL_SECRET_FIRST = "files/pull-secret-first.yaml";

  /**
   * The CustomResourceDefinitions, generated from the routing resource classes into {@code
   * files/crds} and rendered by {@code templates/crds.yaml}.
   */
  public static final List<String> CRDS =
      List.of(
          "files/crds/imagealternatives.kuik.enix.io.yaml",
          "files/crds/imagemirrors.kuik.enix.io.yaml");

  /**
   * The ValidatingAdmissionPolicy that keeps the selftest's identity to dry runs, installed with
   * the release whenever {@code selftest.enabled}.
   */
  public static final String SELFTEST_POLICY = "files/selftest-policy.yaml";

  /** Every file of {@code chart/files} whose objects a render also gives alone ({@link #load}). */
  public static final List<String> FILES =
      List.of(
          ADMISSION_POLICY,
          SYNCER_RBAC,
          WEBHOOK_RBAC,
          SELFTEST_RBAC,
          SELFTEST_POLICY,
          SYNCER_OWNER_REFERENCES_RBAC,
          PULL_SECRET_FIRST);

  /** Where the build copies {@code chart/} inside the jar. */
  static final String BUNDLE = "/kuik/chart/";

  /** The renders so far, per chart folder and release: Helm renders each once a process. */
  private static final Map<String, RenderedRelease> RENDERS = new HashMap<>();

  /** The chart copies Helm renders from, per chart folder. */
  private static final Map<String, Path> PREPARED = new HashMap<>();

  /** The chart folder; {@code null} for the copy bundled in the jar. */
  private final Path directory;

  private ChartFiles(Path directory) {
    this.directory = directory == null ? null : directory.toAbsolutePath().normalize();
  }

  /**
   * The chart files the build bundled into the simulator's jar, the very files of {@code chart/} at
   * build time: what the jar's commands enforce, whatever folder they run in.
   *
   * @throws ChartException when the classpath holds no bundled chart (a build without resources)
   */
  public static ChartFiles bundled() {
    if (ChartFiles.class.getResource(BUNDLE + ADMISSION_POLICY) == null) {
      throw new ChartException(
          "the chart files are not bundled on the classpath under "
              + BUNDLE
              + ": build the simulator with Maven, which copies them from chart/");
    }
    return new ChartFiles(null);
  }

  /**
   * The chart named by the system property {@value #CHART_DIR_PROPERTY}, or else the {@code chart/}
   * folder found by walking up from the working directory, or else the {@linkplain #bundled()
   * bundled} copy (so that {@code kuik simulate} runs from any folder).
   *
   * @throws ChartException when neither finds a chart
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
    if (ChartFiles.class.getResource(BUNDLE + ADMISSION_POLICY) != null) {
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

  /** The chart folder read, or {@code null} for the {@linkplain #bundled() bundled} copy. */
  public Path directory() {
    return directory;
  }

  /**
   * What Helm renders of the chart for the release ({@link HelmRender}): the objects to install,
   * the test hooks, each file of {@link #FILES} alone, and each process's command line. Rendered
   * once per chart and release in a process.
   *
   * @throws ChartException when Helm refuses the values (the chart's schema, a {@code fail})
   */
  public RenderedRelease render(Release release) {
    synchronized (RENDERS) {
      return renderOnce(release);
    }
  }

  private RenderedRelease renderOnce(Release release) {
    Path chart = chartFolder();
    return RENDERS.computeIfAbsent(
        chart + " " + release,
        key ->
            HelmRender.render(
                PREPARED.computeIfAbsent(chart.toString(), c -> HelmRender.prepare(chart, FILES)),
                FILES,
                release));
  }

  /** The objects of one file of {@link #FILES}, as Helm renders it for the release. */
  public List<ObjectNode> load(String file, Release release) {
    return render(release).file(file);
  }

  /** The same, as one YAML stream. */
  public String render(String file, Release release) {
    if (!FILES.contains(file)) {
      throw new ChartException(file + " is not one of the chart's files " + FILES);
    }
    StringBuilder out = new StringBuilder();
    for (ObjectNode object : load(file, release)) {
      out.append("---\n").append(object.toString()).append('\n');
    }
    return out.toString();
  }

  /** The chart's CustomResourceDefinitions, in {@link #CRDS} order. */
  public List<ObjectNode> crds() {
    List<ObjectNode> crds = new ArrayList<>();
    for (String file : CRDS) {
      crds.addAll(parse(read(file), file));
    }
    return crds;
  }

  /** The chart folder Helm renders: this one, or the bundled copy unpacked once. */
  private Path chartFolder() {
    return directory != null ? directory : unpacked();
  }

  private static Path unpacked() {
    return PREPARED.computeIfAbsent(
        "bundled chart",
        key -> {
          try {
            URI uri = ChartFiles.class.getResource(BUNDLE + "Chart.yaml").toURI();
            if (uri.getScheme().equals("file")) {
              return Path.of(uri).getParent();
            }
            Path target = Files.createTempDirectory("kuik-bundled-chart").resolve("kuik");
            try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of());
                Stream<Path> paths = Files.walk(jar.getPath(BUNDLE))) {
              Path root = jar.getPath(BUNDLE);
              for (Path source : (Iterable<Path>) paths::iterator) {
                Path copy = target.resolve(root.relativize(source).toString());
                if (Files.isDirectory(source)) {
                  Files.createDirectories(copy);
                } else {
                  Files.copy(source, copy);
                }
              }
            }
            return target;
          } catch (IOException | URISyntaxException | RuntimeException e) {
            throw new ChartException("cannot unpack the chart bundled in the jar: " + e, e);
          }
        });
  }

  private static List<ObjectNode> parse(String text, String file) {
    try {
      return YamlDocuments.parse(text, file);
    } catch (IllegalArgumentException notYaml) {
      throw new ChartException(notYaml.getMessage(), notYaml);
    }
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
    if (file.startsWith("/") || file.contains("..")) {
      throw new ChartException(file + " is outside the bundled chart");
    }
    try (InputStream in = ChartFiles.class.getResourceAsStream(BUNDLE + file)) {
      if (in == null) {
        throw new ChartException(file + " not found in the bundled chart (" + BUNDLE + ")");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the bundled " + file, e);
    }
  }
}
