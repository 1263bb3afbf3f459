package io.kuik.webhook;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assumptions;

/**
 * A real registry (the Debian package {@code docker-registry}, CNCF distribution 2.8) on a free
 * loopback port, with htpasswd Basic auth or anonymous, its data and log (the access log included)
 * in a temporary directory. {@code .ci/install-registry.sh} installs it; tests skip when it is
 * missing. Public for the webhook load harness ({@code io.kuik.load}).
 */
public final class LocalRegistry implements AutoCloseable {

  public static final String INSTALL_HINT =
      "docker-registry or htpasswd is not on the PATH: run .ci/install-registry.sh to run the"
          + " registry prober's integration tests";

  private static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
  private static final byte[] CONFIG =
      "{\"architecture\":\"amd64\",\"os\":\"linux\",\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[]}}"
          .getBytes(StandardCharsets.UTF_8);

  private final Process process;
  private final int port;
  private final String authorization;
  private final Path log;
  private final HttpClient http = HttpClient.newHttpClient();

  private LocalRegistry(Process process, int port, String authorization, Path log) {
    this.process = process;
    this.port = port;
    this.authorization = authorization;
    this.log = log;
  }

  public static boolean installed() {
    return onPath("docker-registry").isPresent() && onPath("htpasswd").isPresent();
  }

  private static final AtomicBoolean TOLD_MISSING = new AtomicBoolean();

  /**
   * Skips the calling test (a JUnit assumption, to be called per test) when the registry or
   * htpasswd is missing, with {@link #INSTALL_HINT}; says it once on stderr too, since Surefire
   * shows skipped tests only as a count.
   */
  public static void assumeInstalled() {
    boolean installed = installed();
    if (!installed && TOLD_MISSING.compareAndSet(false, true)) {
      System.err.println("[registry-tests] " + INSTALL_HINT);
    }
    Assumptions.assumeTrue(installed, INSTALL_HINT);
  }

  /**
   * Starts a registry that lets {@code user} in with {@code password}, and waits until it serves.
   */
  public static LocalRegistry start(Path directory, String user, String password)
      throws IOException, InterruptedException {
    Path htpasswd = directory.resolve("htpasswd");
    Process hash =
        new ProcessBuilder("htpasswd", "-nbB", "-C", "4", user, password)
            .redirectErrorStream(true)
            .start();
    String line = new String(hash.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (hash.waitFor() != 0 || !line.startsWith(user + ":$2")) {
      throw new IOException("htpasswd failed: " + line.replace(password, "<password>"));
    }
    Files.writeString(htpasswd, line + "\n");
    String basic =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    return serve(
        directory,
        basic,
        List.of("auth:", "  htpasswd:", "    realm: basic-realm", "    path: " + htpasswd));
  }

  /**
   * Starts a registry behind a token realm (the distribution token spec): it challenges with {@code
   * Bearer realm=<realm>,service=<service>} and takes the JWTs {@code issuer} signs with the key of
   * the certificate in {@code rootCertBundle}. Nothing can be pushed to it (a push would need a
   * token); it serves to try credentials against.
   */
  public static LocalRegistry startWithTokenRealm(
      Path directory, String realm, String service, String issuer, Path rootCertBundle)
      throws IOException, InterruptedException {
    return serve(
        directory,
        null,
        401,
        List.of(
            "auth:",
            "  token:",
            "    realm: " + realm,
            "    service: " + service,
            "    issuer: " + issuer,
            "    rootcertbundle: " + rootCertBundle));
  }

  /** Starts a registry that serves and accepts pushes from anyone, and waits until it serves. */
  public static LocalRegistry startAnonymous(Path directory)
      throws IOException, InterruptedException {
    return serve(directory, null, List.of());
  }

  private static LocalRegistry serve(Path directory, String authorization, List<String> auth)
      throws IOException, InterruptedException {
    return serve(directory, authorization, authorization == null ? 200 : 401, auth);
  }

  private static LocalRegistry serve(
      Path directory, String authorization, int servingStatus, List<String> auth)
      throws IOException, InterruptedException {
    int port = freePort();
    Path config = directory.resolve("config.yml");
    List<String> lines =
        new ArrayList<>(
            List.of(
                "version: 0.1",
                "log:",
                "  level: info",
                "storage:",
                "  filesystem:",
                "    rootdirectory: " + directory.resolve("data"),
                "  delete:",
                "    enabled: true",
                "http:",
                "  addr: 127.0.0.1:" + port,
                "  secret: kuik-test-only"));
    lines.addAll(auth);
    lines.add("");
    Files.writeString(config, String.join("\n", lines));
    Path log = directory.resolve("registry.log");
    Process process =
        new ProcessBuilder("docker-registry", "serve", config.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    LocalRegistry registry = new LocalRegistry(process, port, authorization, log);
    registry.awaitServing(servingStatus);
    return registry;
  }

  /** {@code 127.0.0.1:<port>}, the registry part of its images. */
  public String host() {
    return "127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  /**
   * Pushes an image of one config blob and no layers as {@code repository:tag}, with plain HTTP
   * calls of the distribution API; returns the manifest's digest.
   */
  public String push(String repository, String tag) throws IOException, InterruptedException {
    return pushTags(repository, List.of(tag));
  }

  /**
   * Pushes one image under every tag of {@code tags} in {@code repository}: the config blob once,
   * then one manifest PUT per tag; returns the manifest's digest.
   */
  public String pushTags(String repository, Collection<String> tags)
      throws IOException, InterruptedException {
    String configDigest = digest(CONFIG);
    HttpResponse<String> started =
        send(
            HttpRequest.newBuilder(uri("/v2/" + repository + "/blobs/uploads/"))
                .POST(HttpRequest.BodyPublishers.noBody()),
            202);
    String location = started.headers().firstValue("Location").orElseThrow();
    URI upload = uri("/").resolve(location);
    String separator = upload.getRawQuery() == null ? "?" : "&";
    send(
        HttpRequest.newBuilder(URI.create(upload + separator + "digest=" + configDigest))
            .header("Content-Type", "application/octet-stream")
            .PUT(HttpRequest.BodyPublishers.ofByteArray(CONFIG)),
        201);
    byte[] manifest =
        ("{\"schemaVersion\":2,\"mediaType\":\""
                + OCI_MANIFEST
                + "\",\"config\":{\"mediaType\":\"application/vnd.oci.image.config.v1+json\","
                + "\"digest\":\""
                + configDigest
                + "\",\"size\":"
                + CONFIG.length
                + "},\"layers\":[]}")
            .getBytes(StandardCharsets.UTF_8);
    for (String tag : tags) {
      send(
          HttpRequest.newBuilder(uri("/v2/" + repository + "/manifests/" + tag))
              .header("Content-Type", OCI_MANIFEST)
              .PUT(HttpRequest.BodyPublishers.ofByteArray(manifest)),
          201);
    }
    return digest(manifest);
  }

  /** The registry's log: its own lines and one access-log line per request. */
  public Path log() {
    return log;
  }

  /** The registry process, e.g. to read its CPU time. */
  public ProcessHandle process() {
    return process.toHandle();
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private HttpResponse<String> send(HttpRequest.Builder request, int expected)
      throws IOException, InterruptedException {
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    HttpResponse<String> response =
        http.send(
            request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != expected) {
      throw new IOException(
          response.request().method()
              + " "
              + response.request().uri()
              + " answered "
              + response.statusCode()
              + ": "
              + response.body());
    }
    return response;
  }

  /** Waits until {@code /v2/} answers {@code status}: 401 behind auth, 200 anonymous. */
  private void awaitServing(int status) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("docker-registry exited: " + Files.readString(log));
      }
      try {
        HttpResponse<Void> answer =
            http.send(
                HttpRequest.newBuilder(uri("/v2/")).timeout(Duration.ofSeconds(1)).build(),
                HttpResponse.BodyHandlers.discarding());
        if (answer.statusCode() == status) {
          return;
        }
      } catch (IOException notYet) {
        // still starting
      }
      Thread.sleep(50);
    }
    throw new IOException("docker-registry did not serve within 20 s: " + Files.readString(log));
  }

  private URI uri(String path) {
    return URI.create("http://" + host() + path);
  }

  private static String digest(byte[] content) {
    try {
      return "sha256:"
          + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  public static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static Optional<Path> onPath(String command) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String directory : path.split(File.pathSeparator)) {
      Path candidate = Path.of(directory, command);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
