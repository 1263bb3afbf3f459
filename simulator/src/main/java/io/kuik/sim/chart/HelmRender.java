package io.kuik.sim.chart;

import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.object.YamlDocuments;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import tools.jackson.databind.node.ObjectNode;

/**
 * Helm 3 run on the chart, in-process (helm-java, from Maven Central:
 * docs/decisions/0036-helm-from-maven-central.md), as {@code helm template} renders a release:
 * {@link Release#sets()} through Helm's own {@code --set} parser and the chart's schema, the
 * templates and helpers as Helm runs them. Two departures, both for what the simulator cannot hold
 * and neither in a name or a rule it enforces: the webhook's TLS comes from a Secret of the user's
 * ({@code webhook.tls.*}, unless the release sets it), since the simulator models no TLS and Helm's
 * {@code lookup} of the generated one would ask a cluster; and the render is made from a copy of
 * the chart whose {@code helm.sh/hook} annotations are renamed, so that Helm's library keeps the
 * test hooks among the manifests (it leaves them out), with one more template per file of {@code
 * chart/files} including it, so that each file's objects can be taken alone.
 */
final class HelmRender {

  /** The Kubernetes version Helm renders for (the chart needs 1.30 or later). */
  static final String KUBE_VERSION = "v1.34.0";

  private static final String HOOK_STAND_IN = "kuik.sim/helm-hook";
  private static final String SOURCE = "# Source: ";

  private HelmRender() {}

  /** The copy of {@code chart} Helm renders from: hooks renamed, one template per file. */
  static Path prepare(Path chart, List<String> files) {
    try {
      Path copy = Files.createTempDirectory("kuik-sim-chart").resolve("kuik");
      try (Stream<Path> paths = Files.walk(chart)) {
        for (Path source : (Iterable<Path>) paths::iterator) {
          Path target = copy.resolve(chart.relativize(source).toString());
          if (Files.isDirectory(source)) {
            Files.createDirectories(target);
            continue;
          }
          String name = source.getFileName().toString();
          if (name.endsWith(".yaml") || name.endsWith(".tpl") || name.endsWith(".txt")) {
            Files.writeString(
                target,
                Files.readString(source).replaceAll("helm\\.sh/hook(?=[\"':])", HOOK_STAND_IN));
          } else {
            Files.copy(source, target);
          }
        }
      }
      for (int i = 0; i < files.size(); i++) {
        Files.writeString(
            copy.resolve(extraTemplate(i)),
            "{{ include \"kuik.file\" (dict \"root\" . \"path\" \"" + files.get(i) + "\") }}\n");
      }
      copy.toFile().deleteOnExit();
      return copy;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy the chart " + chart, e);
    }
  }

  private static String extraTemplate(int i) {
    return "templates/zz-sim-file-" + i + ".yaml";
  }

  /** Renders the prepared copy for the release. */
  static RenderedRelease render(Path prepared, List<String> files, Release release) {
    var command =
        com.marcnuri.helm.Helm.template(prepared.toString())
            .withName(release.name())
            .withNamespace(release.namespace())
            .withKubeVersion(KUBE_VERSION);
    List<String> sets = new ArrayList<>(release.sets());
    if (sets.stream().noneMatch(s -> s.startsWith("webhook.tls."))) {
      sets.add("webhook.tls.secretName=" + release.fullname() + "-webhook-tls");
      sets.add("webhook.tls.caBundle=Q0E=");
    }
    for (String set : sets) {
      int equals = set.indexOf('=');
      command.set(set.substring(0, equals), set.substring(equals + 1));
    }
    String manifest;
    try {
      manifest = command.call();
    } catch (IllegalStateException refused) {
      throw new ChartException(
          "helm template "
              + release.name()
              + " refused the values "
              + sets
              + ": "
              + refused.getMessage(),
          refused);
    }
    return split(manifest, files, release);
  }

  /** Helm's manifest, template by template ({@code # Source:} heads each). */
  private static RenderedRelease split(String manifest, List<String> files, Release release) {
    Map<String, StringBuilder> bySource = new LinkedHashMap<>();
    String source = "";
    for (String line : manifest.split("\n", -1)) {
      if (line.startsWith(SOURCE)) {
        source = line.substring(SOURCE.length()).replaceFirst("^[^/]+/", "");
        bySource.computeIfAbsent(source, s -> new StringBuilder()).append("---\n");
        continue;
      }
      bySource.computeIfAbsent(source, s -> new StringBuilder()).append(line).append('\n');
    }
    List<ObjectNode> objects = new ArrayList<>();
    List<ObjectNode> hooks = new ArrayList<>();
    Map<String, List<ObjectNode>> byFile = new LinkedHashMap<>();
    for (Map.Entry<String, StringBuilder> rendered : bySource.entrySet()) {
      List<ObjectNode> parsed = parse(rendered.getValue().toString(), rendered.getKey());
      int file = fileIndex(rendered.getKey(), files.size());
      if (file >= 0) {
        byFile.put(files.get(file), parsed);
        continue;
      }
      for (ObjectNode object : parsed) {
        (object.path("metadata").path("annotations").has(RenderedRelease.HOOK) ? hooks : objects)
            .add(object);
      }
    }
    return new RenderedRelease(release, objects, hooks, byFile);
  }

  private static int fileIndex(String source, int files) {
    for (int i = 0; i < files; i++) {
      if (source.equals(extraTemplate(i))) {
        return i;
      }
    }
    return -1;
  }

  /** The documents of one template, the hook annotation given back its name. */
  private static List<ObjectNode> parse(String text, String source) {
    List<ObjectNode> objects = new ArrayList<>();
    for (ObjectNode object : YamlDocuments.parse(text, source)) {
      if (object.path("metadata").path("annotations") instanceof ObjectNode annotations
          && annotations.has(HOOK_STAND_IN)) {
        annotations.set(RenderedRelease.HOOK, annotations.remove(HOOK_STAND_IN));
      }
      if (Meta.name(object) != null && Json.text(object, "kind") != null) {
        objects.add(object);
      }
    }
    return objects;
  }
}
