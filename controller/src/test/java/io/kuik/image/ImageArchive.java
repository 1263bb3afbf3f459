package io.kuik.image;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An OCI image archive as the image profile writes it (an OCI image layout in a tar: {@code
 * index.json}, {@code blobs/sha256/...}), opened the way a runtime reads it: the index names the
 * manifest, the manifest the config and the layers, in order. Unpacked with the system's {@code
 * tar}, under the build directory.
 */
final class ImageArchive {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final Path archive;
  private final Path layout;
  private final JsonNode index;
  private final JsonNode manifest;
  private final JsonNode config;

  private ImageArchive(Path archive, Path layout) {
    this.archive = archive;
    this.layout = layout;
    this.index = JSON.readTree(read(layout.resolve("index.json")));
    this.manifest = JSON.readTree(read(blob(manifestDigest())));
    this.config = JSON.readTree(read(blob(manifest.path("config").path("digest").asString())));
  }

  /** The archive {@code package} built ({@code kuik.image.archive}). */
  static ImageArchive built() {
    return open(property("kuik.image.archive"), "first");
  }

  /** The archive the second build wrote from the same inputs ({@code kuik.image.archive.again}). */
  static ImageArchive builtAgain() {
    return open(property("kuik.image.archive.again"), "again");
  }

  /**
   * Unpacks each archive once per test JVM, into a folder emptied first: a layout left by an
   * earlier build would describe another image (and two stale layouts would look reproducible).
   */
  private static synchronized ImageArchive open(Path archive, String name) {
    return OPENED.computeIfAbsent(
        archive,
        path -> {
          Path layout = path.resolveSibling("image-unpacked").resolve(name).resolve("layout");
          deleteRecursively(layout);
          tar(path, layout, false);
          return new ImageArchive(path, layout);
        });
  }

  private static final Map<Path, ImageArchive> OPENED = new HashMap<>();

  private static void deleteRecursively(Path folder) {
    if (!Files.exists(folder)) {
      return;
    }
    try (var paths = Files.walk(folder)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot empty " + folder, e);
    }
  }

  Path archive() {
    return archive;
  }

  /** The digest of the image's one manifest, as a registry names it. */
  String manifestDigest() {
    List<JsonNode> manifests = List.copyOf(index.path("manifests").values());
    if (manifests.size() != 1) {
      throw new AssertionError("index.json names " + manifests.size() + " manifests: " + index);
    }
    return manifests.get(0).path("digest").asString();
  }

  /** The reference the archive is named after ({@code org.opencontainers.image.ref.name}). */
  String referenceName() {
    return index
        .path("manifests")
        .path(0)
        .path("annotations")
        .path("org.opencontainers.image.ref.name")
        .asString("");
  }

  JsonNode manifest() {
    return manifest;
  }

  /** The image's runtime configuration ({@code config} of the config blob). */
  JsonNode runtimeConfig() {
    return config.path("config");
  }

  List<String> entrypoint() {
    return strings(runtimeConfig().path("Entrypoint"));
  }

  Map<String, String> environment() {
    Map<String, String> environment = new LinkedHashMap<>();
    for (String variable : strings(runtimeConfig().path("Env"))) {
      int equals = variable.indexOf('=');
      environment.put(variable.substring(0, equals), variable.substring(equals + 1));
    }
    return environment;
  }

  String user() {
    return runtimeConfig().path("User").asString("");
  }

  String workingDirectory() {
    return runtimeConfig().path("WorkingDir").asString("/");
  }

  /** What a pull transfers: the manifest's config and layers, compressed as stored. */
  long compressedBytes() {
    long bytes = manifest.path("config").path("size").asLong();
    for (JsonNode layer : manifest.path("layers").values()) {
      bytes += layer.path("size").asLong();
    }
    return bytes;
  }

  List<String> blobDigests() {
    List<String> digests = new ArrayList<>();
    digests.add(manifest.path("config").path("digest").asString());
    for (JsonNode layer : manifest.path("layers").values()) {
      digests.add(layer.path("digest").asString());
    }
    return digests;
  }

  /** The image's root filesystem: its layers unpacked in order, once per test JVM. */
  synchronized Path root() {
    Path root = layout.resolveSibling("root");
    if (!rootUnpacked) {
      deleteRecursively(root);
      for (JsonNode layer : manifest.path("layers").values()) {
        tar(blob(layer.path("digest").asString()), root, true);
      }
      rootUnpacked = true;
    }
    return root;
  }

  private boolean rootUnpacked;

  Path blob(String digest) {
    return layout.resolve("blobs").resolve(digest.replace(':', '/'));
  }

  static List<String> strings(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.values().forEach(value -> values.add(value.asString()));
    return values;
  }

  private static void tar(Path archive, Path into, boolean gzip) {
    try {
      Files.createDirectories(into);
      List<String> command =
          new ArrayList<>(List.of("tar", "--warning=no-unknown-keyword", "-x", "-f"));
      command.add(archive.toString());
      if (gzip) {
        command.add("-z");
      }
      command.addAll(List.of("-C", into.toString()));
      Process tar = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(tar.getInputStream().readAllBytes());
      if (!tar.waitFor(60, TimeUnit.SECONDS) || tar.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Path property(String name) {
    String value = System.getProperty(name);
    if (value == null || !Files.isRegularFile(Path.of(value))) {
      throw new IllegalStateException(
          name
              + " names no archive ("
              + value
              + "): the image tests run in the image profile, ./mvnw -B -Pimage -pl controller"
              + " verify");
    }
    return Path.of(value);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
