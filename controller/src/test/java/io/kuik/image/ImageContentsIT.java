package io.kuik.image;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** What the image holds and declares, read from the archive: no privilege needed. */
class ImageContentsIT {

  private static final long LIMIT_BYTES = 150L * 1024 * 1024;

  private final ImageArchive image = ImageArchive.built();

  @Test
  void isNamedAfterTheChartsDefaultRepositoryAndTheProjectVersion() throws Exception {
    JsonNode values =
        YAMLMapper.builder().build().readTree(Path.of("../chart/values.yaml").toFile());

    assertAll(
        () ->
            assertEquals(
                values.path("image").path("repository").asString(),
                System.getProperty("kuik.image.repository"),
                "the chart's default image.repository is the one the build names the image"),
        () ->
            assertEquals(
                System.getProperty("kuik.image.repository")
                    + ":"
                    + System.getProperty("kuik.image.version"),
                image.referenceName()));
  }

  @Test
  void givesTheJvmTheChartsOptionsOnItsCommandLineNotInItsEnvironment() {
    List<String> entrypoint = new java.util.ArrayList<>(image.entrypoint());
    entrypoint.set(0, "java");

    assertAll(
        () ->
            assertEquals(
                ChartJvmOptions.command(ChartJvmOptions.words(ChartJvmOptions.written("syncer"))),
                entrypoint,
                "the chart's command, with syncer.jvmOptions"),
        () ->
            assertEquals(
                ChartJvmOptions.written("syncer"),
                ChartJvmOptions.written("webhook"),
                "webhook.jvmOptions"),
        () ->
            assertEquals(
                List.of(),
                image.environment().keySet().stream()
                    .filter(name -> name.endsWith("JAVA_OPTIONS"))
                    .toList(),
                "from JAVA_TOOL_OPTIONS or JDK_JAVA_OPTIONS the JVM prints a line first"));
  }

  @Test
  void runsTheJvmAs65532WithTheOciLabels() {
    JsonNode labels = image.runtimeConfig().path("Labels");

    assertAll(
        () -> assertEquals("65532:65532", image.user()),
        () -> assertEquals("/opt/java/bin/java", image.entrypoint().get(0)),
        () ->
            assertEquals("io.kuik.cli.Main", image.entrypoint().get(image.entrypoint().size() - 1)),
        () -> assertEquals("kuik", labels.path("org.opencontainers.image.title").asString()),
        () ->
            assertEquals(
                System.getProperty("kuik.image.version"),
                labels.path("org.opencontainers.image.version").asString()),
        () -> assertFalse(labels.path("org.opencontainers.image.description").asString().isEmpty()),
        () -> assertFalse(labels.path("org.opencontainers.image.url").asString().isEmpty()),
        () ->
            assertEquals(
                "application/vnd.oci.image.manifest.v1+json",
                image.manifest().path("mediaType").asString()));
  }

  @Test
  void isUnder150MegabytesCompressedAndUnpacked() throws Exception {
    long unpacked;
    try (Stream<Path> files = Files.walk(image.root())) {
      unpacked = files.filter(Files::isRegularFile).mapToLong(ImageContentsIT::size).sum();
    }
    System.out.printf(
        "[image] %s: %s, %.1f MB to pull (compressed layers), %.1f MB unpacked, %d layers%n",
        image.referenceName(),
        image.manifestDigest(),
        image.compressedBytes() / 1e6,
        unpacked / 1e6,
        image.manifest().path("layers").size());

    assertTrue(image.compressedBytes() < LIMIT_BYTES, "compressed " + image.compressedBytes());
    assertTrue(unpacked < LIMIT_BYTES, "unpacked " + unpacked);
  }

  @Test
  void holdsNoShellAndNoPackageManagerOnlyTheRuntime() {
    Path root = image.root();

    assertAll(
        () -> assertFalse(Files.exists(root.resolve("bin/sh")), "/bin/sh"),
        () -> assertFalse(Files.exists(root.resolve("usr/bin/apt-get")), "/usr/bin/apt-get"),
        () -> assertTrue(Files.isExecutable(root.resolve("opt/java/bin/java"))),
        () -> assertTrue(Files.isExecutable(root.resolve("lib64/ld-linux-x86-64.so.2"))),
        () -> assertTrue(Files.isDirectory(root.resolve("tmp"))),
        () -> assertTrue(Files.isRegularFile(root.resolve("usr/share/doc/libc6/copyright"))),
        () ->
            assertTrue(
                Files.readString(root.resolve("etc/passwd")).contains(":65532:65532:"),
                "/etc/passwd names the user the image runs as"));
  }

  @Test
  void holdsTheCaCertificatesTheRegistryProbesTrust() throws Exception {
    KeyStore trust = KeyStore.getInstance("JKS");
    try (InputStream in =
        Files.newInputStream(image.root().resolve("opt/java/lib/security/cacerts"))) {
      trust.load(in, null);
    }
    List<String> subjects = new ArrayList<>();
    for (String alias : Collections.list(trust.aliases())) {
      if (trust.isCertificateEntry(alias)) {
        subjects.add(
            ((X509Certificate) trust.getCertificate(alias)).getSubjectX500Principal().getName());
      }
    }

    assertTrue(subjects.size() > 50, () -> subjects.size() + " trusted certificates");
    // Let's Encrypt's root, and DigiCert's, behind most public registries.
    assertTrue(subjects.stream().anyMatch(s -> s.contains("CN=ISRG Root X1")), subjects::toString);
    assertTrue(
        subjects.stream().anyMatch(s -> s.contains("CN=DigiCert Global Root")), subjects::toString);
  }

  /**
   * The jlinked runtime has every module jdeps finds in the image's jars, except java.desktop: only
   * jackson-databind's java.beans support reaches it, and Jackson loads that support only when the
   * module is there (JavaBeansAnnotations catches the missing class).
   */
  @Test
  void theRuntimeHasEveryModuleTheJarsNeed() throws Exception {
    Path root = image.root();
    List<String> args =
        new ArrayList<>(
            List.of("--ignore-missing-deps", "--print-module-deps", "--multi-release", "17"));
    try (Stream<Path> jars = Files.walk(root.resolve("app"))) {
      jars.filter(path -> path.toString().endsWith(".jar"))
          .sorted()
          .forEach(path -> args.add(path.toString()));
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit =
        ToolProvider.findFirst("jdeps")
            .orElseThrow()
            .run(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
    assertEquals(0, exit, err::toString);
    Set<String> needed = new TreeSet<>(List.of(out.toString().trim().split(",")));
    needed.remove("java.desktop");

    String release = Files.readString(root.resolve("opt/java/release"));
    String modulesLine =
        release.lines().filter(line -> line.startsWith("MODULES=")).findFirst().orElseThrow();
    Set<String> present =
        new TreeSet<>(List.of(modulesLine.substring(9, modulesLine.length() - 1).split(" ")));
    Set<String> missing = new TreeSet<>(needed);
    missing.removeAll(present);

    assertEquals(
        Set.of(),
        missing,
        "modules the jars need and the runtime lacks: add them to"
            + " kuik.image.modules in controller/pom.xml");
    assertTrue(present.contains("jdk.crypto.ec"), "TLS with EC keys needs jdk.crypto.ec");
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
