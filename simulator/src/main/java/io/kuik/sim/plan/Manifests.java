package io.kuik.sim.plan;

import io.kuik.model.DockerConfig;
import io.kuik.model.RegistryCredential;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The manifests {@code kuik plan} reads: every YAML or JSON document of the files and folders it is
 * given (folders recursively, {@code *.yaml}, {@code *.yml} and {@code *.json}, in name order; a
 * {@code kind: List} stands for its items), sorted by what the plan does with them.
 *
 * <p>A <em>redacted Secret</em> is a Secret that carries the annotation {@value #AUTHS_KEYS} (its
 * {@code auths} keys, comma-separated) and no data: it stands for a source Secret whose credentials
 * must not leave the cluster. The plan gives each key a credential of its own, so a key can be
 * traced to the {@code kuik-inject-*} Secrets it ends up in; nothing else of it is real (a redacted
 * Secret cannot show the 1 MiB limit, say).
 */
public final class Manifests {

  /** The annotation of a redacted Secret: its {@code auths} keys, comma-separated. */
  public static final String AUTHS_KEYS = "plan.kuik.enix.io/auths-keys";

  private static final YAMLMapper YAML = YAMLMapper.builder().build();

  /** One document and where it was read: {@code file} or {@code file#n} for the n-th document. */
  public record Manifest(String source, ObjectNode object) {
    public String kind() {
      return object.path("kind").asString("");
    }

    public String name() {
      return object.path("metadata").path("name").asString("");
    }

    /** {@code metadata.namespace}, or {@code null} when absent. */
    public String namespace() {
      JsonNode ns = object.path("metadata").path("namespace");
      return ns.isString() && !ns.stringValue().isEmpty() ? ns.stringValue() : null;
    }
  }

  /**
   * What was read, by kind, in reading order; {@code ignored} names the documents of other kinds,
   * {@code problems} the files or documents that could not be read.
   */
  public record Set(
      List<Manifest> namespaces,
      List<Manifest> secrets,
      List<Manifest> routingResources,
      List<Manifest> pods,
      List<Manifest> deployments,
      List<String> ignored,
      List<PlanReport.Problem> problems,
      List<String> read) {

    /**
     * @param read what each path gave, one line each ({@code a.yaml: 3 documents}, {@code dir: no
     *     *.yaml, *.yml or *.json file}), for the message of a plan that read no manifest
     */
    public Set {
      namespaces = List.copyOf(namespaces);
      secrets = List.copyOf(secrets);
      routingResources = List.copyOf(routingResources);
      pods = List.copyOf(pods);
      deployments = List.copyOf(deployments);
      ignored = List.copyOf(ignored);
      problems = List.copyOf(problems);
      read = List.copyOf(read);
    }

    /** Whether no document of a kind the plan reads was found: nothing to plan. */
    public boolean isEmpty() {
      return namespaces.isEmpty()
          && secrets.isEmpty()
          && routingResources.isEmpty()
          && pods.isEmpty()
          && deployments.isEmpty();
    }

    /**
     * The namespaces these manifests name: their Namespaces, every object's {@code
     * metadata.namespace}, and {@code default} for a Pod or Deployment without one.
     */
    public java.util.Set<String> declaredNamespaces() {
      java.util.Set<String> declared = new java.util.TreeSet<>();
      namespaces.forEach(n -> declared.add(n.name()));
      for (List<Manifest> kind : List.of(secrets, routingResources, pods, deployments)) {
        for (Manifest manifest : kind) {
          if (manifest.namespace() != null) {
            declared.add(manifest.namespace());
          }
        }
      }
      for (List<Manifest> kind : List.of(pods, deployments)) {
        if (kind.stream().anyMatch(m -> m.namespace() == null)) {
          declared.add("default");
        }
      }
      return declared;
    }
  }

  /**
   * A path that cannot be planned as it is: a Helm chart's folder, whose templates must be rendered
   * first. The message says how.
   */
  public static final class NotManifests extends RuntimeException {
    NotManifests(String message) {
      super(message);
    }
  }

  /** The path {@code -f -} names: the manifests come on standard input. */
  public static final String STANDARD_INPUT = "-";

  private final List<Manifest> namespaces = new ArrayList<>();
  private final List<Manifest> secrets = new ArrayList<>();
  private final List<Manifest> routingResources = new ArrayList<>();
  private final List<Manifest> pods = new ArrayList<>();
  private final List<Manifest> deployments = new ArrayList<>();
  private final List<String> ignored = new ArrayList<>();
  private final List<PlanReport.Problem> problems = new ArrayList<>();
  private final List<String> read = new ArrayList<>();

  private Manifests() {}

  /** Reads every path (a file, or a folder read recursively); {@code -} is not read. */
  public static Set read(List<Path> paths) {
    return read(paths, InputStream.nullInputStream());
  }

  /**
   * Reads every path (a file, or a folder read recursively), and {@code stdin} for the path {@value
   * #STANDARD_INPUT}.
   *
   * @throws IllegalArgumentException when a path does not exist: a bad command line
   * @throws NotManifests when a path is a Helm chart's folder
   */
  public static Set read(List<Path> paths, InputStream stdin) {
    Manifests manifests = new Manifests();
    for (Path path : paths) {
      if (path.toString().equals(STANDARD_INPUT)) {
        manifests.readText("standard input", readAll(stdin));
        continue;
      }
      if (!Files.exists(path)) {
        throw new IllegalArgumentException(path + ": no such file or folder");
      }
      if (Files.isDirectory(path) && Files.isRegularFile(path.resolve("Chart.yaml"))) {
        throw new NotManifests(
            path
                + " is a Helm chart (it holds Chart.yaml): kuik plan reads manifests, not"
                + " templates. Render the chart first and plan what it gives: helm template"
                + " <release> "
                + path
                + " [--values ...] | java -jar kuik-simulator-<version>-all.jar plan -f -");
      }
      List<Path> files = files(path);
      if (files.isEmpty()) {
        manifests.read.add(path + ": a folder without any *.yaml, *.yml or *.json file");
      }
      for (Path file : files) {
        manifests.readFile(file);
      }
    }
    return new Set(
        manifests.namespaces,
        manifests.secrets,
        manifests.routingResources,
        manifests.pods,
        manifests.deployments,
        manifests.ignored,
        manifests.problems,
        manifests.read);
  }

  private static String readAll(InputStream stdin) {
    try {
      return new String(stdin.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read standard input", e);
    }
  }

  private static List<Path> files(Path path) {
    if (!Files.isDirectory(path)) {
      return List.of(path);
    }
    try (Stream<Path> walk = Files.walk(path)) {
      return walk.filter(Files::isRegularFile).filter(Manifests::isManifest).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + path, e);
    }
  }

  private static boolean isManifest(Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    return name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json");
  }

  private void readFile(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      problems.add(inputProblem(file.toString(), "cannot be read: " + e.getMessage()));
      read.add(file + ": cannot be read");
      return;
    }
    readText(file.toString(), text);
  }

  private void readText(String name, String text) {
    List<JsonNode> documents = new ArrayList<>();
    try (var values = YAML.readerFor(JsonNode.class).<JsonNode>readValues(text)) {
      while (values.hasNextValue()) {
        documents.add(values.nextValue());
      }
    } catch (JacksonException e) {
      String where =
          e.getLocation() == null || e.getLocation().getLineNr() < 1
              ? ""
              : " at line " + e.getLocation().getLineNr();
      String message =
          text.contains("{{")
              ? "not valid YAML"
                  + where
                  + ": it looks like a Helm template ({{ ... }}); render the chart first (helm"
                  + " template ... | kuik plan -f -)"
              : "not valid YAML" + where + ": " + e.getOriginalMessage();
      problems.add(inputProblem(name, message));
      read.add(name + ": " + message);
      return;
    }
    int index = 0;
    int kept = 0;
    for (JsonNode document : documents) {
      index++;
      String source = documents.size() == 1 ? name : name + "#" + index;
      if (document == null || document.isNull() || document.isMissingNode()) {
        continue;
      }
      kept++;
      if (!document.isObject()) {
        problems.add(inputProblem(source, "is not a manifest (a YAML mapping)"));
        continue;
      }
      add(new Manifest(source, (ObjectNode) document));
    }
    read.add(
        name
            + ": "
            + (kept == 0
                ? "no YAML document (empty)"
                : kept + (kept == 1 ? " document" : " documents")));
  }

  private void add(Manifest manifest) {
    String apiVersion = manifest.object().path("apiVersion").asString("");
    String kind = manifest.kind();
    if ("v1".equals(apiVersion) && "List".equals(kind)) {
      int index = 0;
      for (JsonNode item : manifest.object().path("items")) {
        index++;
        if (item.isObject()) {
          add(new Manifest(manifest.source() + " item " + index, (ObjectNode) item));
        }
      }
      return;
    }
    String gvk = apiVersion + "/" + kind;
    switch (gvk) {
      case "v1/Namespace":
        namespaces.add(manifest);
        break;
      case "v1/Secret":
        secret(manifest);
        break;
      case "kuik.enix.io/v1alpha1/ImageAlternative":
      case "kuik.enix.io/v1alpha1/ImageMirror":
        routingResources.add(manifest);
        break;
      case "v1/Pod":
        pods.add(manifest);
        break;
      case "apps/v1/Deployment":
        deployments.add(manifest);
        break;
      default:
        ignored.add(describeIgnored(manifest, kind) + " (" + manifest.source() + ")");
    }
  }

  private static String describeIgnored(Manifest manifest, String kind) {
    if (!kind.isEmpty()) {
      return kind + " " + manifest.name();
    }
    if (manifest.object().has("services")) {
      return "a Docker Compose file (services, no apiVersion or kind), not a Kubernetes manifest";
    }
    return "a document without kind";
  }

  private void secret(Manifest manifest) {
    JsonNode keys = manifest.object().path("metadata").path("annotations").path(AUTHS_KEYS);
    if (keys.isMissingNode()) {
      secrets.add(manifest);
      return;
    }
    ObjectNode object = manifest.object();
    if (object.has("data") || object.has("stringData")) {
      problems.add(
          inputProblem(
              manifest.source(),
              "Secret "
                  + manifest.name()
                  + " is redacted ("
                  + AUTHS_KEYS
                  + ") but also holds data: keep only one of the two"));
      return;
    }
    secrets.add(new Manifest(manifest.source(), unredacted(object, keys.asString(""))));
  }

  /**
   * The redacted Secret with a {@code .dockerconfigjson} holding one made-up credential per key,
   * each different from the others so that the plan can tell which key a credential came from.
   */
  static ObjectNode unredacted(ObjectNode redacted, String keys) {
    Map<String, RegistryCredential> auths = new LinkedHashMap<>();
    int n = 0;
    for (String key : keys.split(",")) {
      String trimmed = key.strip();
      if (!trimmed.isEmpty()) {
        n++;
        auths.put(trimmed, RegistryCredential.basic("plan-" + n, "redacted-" + n));
      }
    }
    ObjectNode copy = redacted.deepCopy();
    String json = new DockerConfig(auths).toJson();
    copy.putObject("data")
        .put(
            ".dockerconfigjson",
            Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8)));
    return copy;
  }

  private static PlanReport.Problem inputProblem(String where, String message) {
    return new PlanReport.Problem(where, "InvalidManifest", message);
  }
}
