package io.kuik.sim.chart;

import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What Helm renders of the chart for one {@link Release}: the objects {@code helm install} creates,
 * the test hooks {@code helm test} creates, and, on their own, the objects of each file of {@code
 * chart/files} whatever the values (so that a test or an upgrade can take one file's objects). What
 * each process is told, its command line, is read from the Deployment or Pod that runs it.
 */
public final class RenderedRelease {

  /** The annotation Helm marks a hook with. */
  public static final String HOOK = "helm.sh/hook";

  private final Release release;
  private final List<ObjectNode> objects;
  private final List<ObjectNode> hooks;
  private final Map<String, List<ObjectNode>> files;

  RenderedRelease(
      Release release,
      List<ObjectNode> objects,
      List<ObjectNode> hooks,
      Map<String, List<ObjectNode>> files) {
    this.release = Objects.requireNonNull(release, "release");
    this.objects = List.copyOf(objects);
    this.hooks = List.copyOf(hooks);
    this.files = Map.copyOf(files);
  }

  public Release release() {
    return release;
  }

  /** Copies of the objects {@code helm install} creates, hooks left out, in render order. */
  public List<ObjectNode> objects() {
    return copies(objects);
  }

  /** Copies of the {@code helm test} hooks, in render order. */
  public List<ObjectNode> hooks() {
    return copies(hooks);
  }

  /** Copies of the objects of one file of {@code chart/files}, rendered for this release. */
  public List<ObjectNode> file(String file) {
    List<ObjectNode> found = files.get(file);
    if (found == null) {
      throw new ChartException(file + " is not a file of chart/files the simulator renders");
    }
    return copies(found);
  }

  /** The objects of one kind, hooks included. */
  public List<ObjectNode> ofKind(String kind) {
    List<ObjectNode> found = new ArrayList<>();
    for (ObjectNode object : all()) {
      if (kind.equals(Json.text(object, "kind"))) {
        found.add(object.deepCopy());
      }
    }
    return found;
  }

  /** The one object of that kind and name, hooks included. */
  public Optional<ObjectNode> find(String kind, String name) {
    return ofKind(kind).stream().filter(o -> name.equals(Meta.name(o))).findFirst();
  }

  /**
   * The arguments of the container that runs {@code kuik <command>} ({@code syncer}, {@code
   * webhook}, {@code selftest}), the command first; empty when nothing runs it.
   */
  public List<String> args(String command) {
    return runner(command).map(RenderedRelease::argsOf).orElse(List.of());
  }

  /** The Deployment, or the Pod hook, that runs {@code kuik <command>}. */
  public Optional<ObjectNode> runner(String command) {
    for (ObjectNode object : all()) {
      List<String> args = argsOf(object);
      if (!args.isEmpty() && args.get(0).equals(command)) {
        return Optional.of(object.deepCopy());
      }
    }
    return Optional.empty();
  }

  /**
   * The files the container that runs {@code kuik <command>} sees from the ConfigMaps the render
   * mounts into it, by path: each key of the ConfigMap's data a file under the mount's path, as the
   * kubelet projects a configMap volume
   * (https://kubernetes.io/docs/concepts/storage/volumes/#configmap).
   */
  public Map<String, String> mountedFiles(String command) {
    Map<String, String> files = new java.util.TreeMap<>();
    Optional<ObjectNode> runner = runner(command);
    if (runner.isEmpty()) {
      return files;
    }
    JsonNode spec = runner.get().path("spec").path("template").path("spec");
    Map<String, String> configMaps = new java.util.HashMap<>();
    for (JsonNode volume : spec.path("volumes")) {
      if (volume.has("configMap")) {
        configMaps.put(
            volume.path("name").asString(), volume.path("configMap").path("name").asString());
      }
    }
    for (JsonNode mount : spec.path("containers").path(0).path("volumeMounts")) {
      String configMap = configMaps.get(mount.path("name").asString());
      if (configMap == null) {
        continue;
      }
      String path = mount.path("mountPath").asString();
      find("ConfigMap", configMap)
          .ifPresent(
              found ->
                  found
                      .path("data")
                      .properties()
                      .forEach(e -> files.put(path + "/" + e.getKey(), e.getValue().asString())));
    }
    return files;
  }

  /** The namespaces the webhook configuration's namespaceSelector leaves out. */
  public List<String> webhookExcludes() {
    List<String> names = new ArrayList<>();
    for (ObjectNode config : ofKind("MutatingWebhookConfiguration")) {
      for (JsonNode expression :
          config.path("webhooks").path(0).path("namespaceSelector").path("matchExpressions")) {
        if (expression.path("operator").asString().equals("NotIn")) {
          expression.path("values").forEach(v -> names.add(v.asString()));
        }
      }
    }
    return names;
  }

  private List<ObjectNode> all() {
    List<ObjectNode> all = new ArrayList<>(objects);
    all.addAll(hooks);
    return all;
  }

  private static List<String> argsOf(JsonNode object) {
    JsonNode spec =
        "Pod".equals(object.path("kind").asString())
            ? object.path("spec")
            : object.path("spec").path("template").path("spec");
    List<String> args = new ArrayList<>();
    spec.path("containers").path(0).path("args").forEach(a -> args.add(a.asString()));
    return args;
  }

  private static List<ObjectNode> copies(List<ObjectNode> objects) {
    List<ObjectNode> out = new ArrayList<>();
    objects.forEach(o -> out.add(o.deepCopy()));
    return out;
  }
}
