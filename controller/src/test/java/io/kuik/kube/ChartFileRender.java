package io.kuik.kube;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * One file of {@code chart/files} as Helm renders it for a release with the chart's default values
 * (helm-java, in-process: docs/decisions/0036-helm-from-maven-central.md), so that every name in it
 * comes from the chart's own helpers. The file is included by one more template in a copy of the
 * chart, {@code helm.sh/hook} renamed so that Helm's library keeps a hook among the manifests; the
 * webhook's TLS comes from a Secret of the user's, so that no {@code lookup} asks a cluster.
 */
public final class ChartFileRender {

  private static final String EXTRA = "templates/zz-file.yaml";
  private static final Map<String, String> CACHE = new ConcurrentHashMap<>();

  private ChartFileRender() {}

  /** The rendered objects of {@code chart/<file>}, as a YAML stream. */
  public static String render(String file, String release, String namespace) {
    return CACHE.computeIfAbsent(
        file + " " + release + " " + namespace, k -> helm(file, release, namespace));
  }

  private static String helm(String file, String release, String namespace) {
    Path chart = chart();
    Path copy = null;
    try {
      copy = Files.createTempDirectory("kuik-chart");
      Path target = copy.resolve("chart");
      try (Stream<Path> paths = Files.walk(chart)) {
        for (Path source : (Iterable<Path>) paths::iterator) {
          Files.copy(source, target.resolve(chart.relativize(source).toString()));
        }
      }
      Files.writeString(
          target.resolve(EXTRA),
          "{{ include \"kuik.file\" (dict \"root\" . \"path\" \""
              + file
              + "\") | replace \"helm.sh/hook\" \"kuik.test/helm-hook\" }}\n");
      String manifest =
          com.marcnuri.helm.Helm.template(target.toString())
              .withName(release)
              .withNamespace(namespace)
              .withKubeVersion("v1.34.0")
              .set("webhook.tls.secretName", "webhook-tls")
              .set("webhook.tls.caBundle", "Q0E=")
              .call();
      return only(manifest, "# Source: kuik/" + EXTRA);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      delete(copy);
    }
  }

  /**
   * The arguments of the container running {@code kuik <command>} in the chart Helm renders for the
   * release with its default values (the webhook's TLS from a Secret of the user's, so that no
   * {@code lookup} asks a cluster).
   */
  public static java.util.List<String> args(String command, String release, String namespace) {
    String manifest =
        com.marcnuri.helm.Helm.template(chart().toString())
            .withName(release)
            .withNamespace(namespace)
            .withKubeVersion("v1.34.0")
            .set("webhook.tls.secretName", "webhook-tls")
            .set("webhook.tls.caBundle", "Q0E=")
            .call();
    var yaml = tools.jackson.dataformat.yaml.YAMLMapper.builder().build();
    try (var documents =
        yaml.readerFor(tools.jackson.databind.JsonNode.class)
            .<tools.jackson.databind.JsonNode>readValues(manifest)) {
      while (documents.hasNextValue()) {
        tools.jackson.databind.JsonNode document = documents.nextValue();
        if (document == null || !"Deployment".equals(document.path("kind").asString(""))) {
          continue;
        }
        java.util.List<String> args = new java.util.ArrayList<>();
        document
            .path("spec")
            .path("template")
            .path("spec")
            .path("containers")
            .path(0)
            .path("args")
            .forEach(a -> args.add(a.asString()));
        if (!args.isEmpty() && args.get(0).equals(command)) {
          return args;
        }
      }
    }
    throw new AssertionError("no Deployment runs " + command);
  }

  private static Path chart() {
    return Path.of(System.getProperty("basedir", ".")).resolve("../chart").normalize();
  }

  /** The documents of one template in Helm's manifest, which heads each with its source. */
  private static String only(String manifest, String source) {
    StringBuilder out = new StringBuilder();
    boolean in = false;
    for (String line : manifest.split("\n")) {
      if (line.startsWith("# Source: ")) {
        in = line.equals(source);
        if (in) {
          out.append("---\n");
        }
        continue;
      }
      if (in && !line.equals("---")) {
        out.append(line).append('\n');
      }
    }
    return out.toString();
  }

  private static void delete(Path root) {
    if (root == null) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException ignored) {
      // A temp folder left behind is harmless.
    }
  }
}
