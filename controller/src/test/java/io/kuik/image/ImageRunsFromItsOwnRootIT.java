package io.kuik.image;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kuik.kube.ClusterFixtures;
import io.kuik.kube.MockCluster;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The image runs from nothing but its own root filesystem, read-only but for an empty {@code /tmp},
 * as uid 65532 ({@link ImageRoot}): the commands answer, and a real {@code kuik syncer} writes the
 * Secrets of an Always ImageAlternative through fabric8's mock API server, then stops cleanly on
 * SIGTERM.
 */
class ImageRunsFromItsOwnRootIT {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final ImageArchive image = ImageArchive.built();
  private final ImageRoot root = new ImageRoot(image);

  @BeforeEach
  void requireMountsAndChroot() {
    String why = ImageRoot.whyNot();
    if (why != null) {
      System.err.println("[image] " + why);
    }
    assumeTrue(why == null, why);
  }

  @Test
  void printsItsVersion(@TempDir Path logs) throws Exception {
    Path log = logs.resolve("version.log");

    int exit = root.run(List.of("--version"), log);

    String output = Files.readString(log);
    assertEquals(0, exit, output);
    assertEquals(
        List.of("kuik " + System.getProperty("kuik.image.version")), output.lines().toList());
  }

  @Test
  void explainsTheSyncersFlags(@TempDir Path logs) throws Exception {
    Path log = logs.resolve("help.log");

    int exit = root.run(List.of("syncer", "--help"), log);

    String output = Files.readString(log);
    assertAll(
        () -> assertEquals(0, exit, output),
        () -> assertTrue(output.startsWith("Usage: kuik syncer"), output),
        () -> assertTrue(output.contains("--cluster-resource-namespace"), output));
  }

  /**
   * What a log collector reads from the container, stdout and stderr together: JSON from the first
   * line on, nothing from the JVM before it. Here the syncer has no cluster to talk to and says so.
   */
  @Test
  void everyLineOfTheSyncersOutputIsJsonFromTheFirst(@TempDir Path logs) throws Exception {
    Path log = logs.resolve("json.log");

    int exit = root.run(List.of("syncer", "--cluster-resource-namespace=kuik-system"), log);

    List<String> lines = Files.readString(log).lines().toList();
    assertEquals(1, exit, String.join("\n", lines));
    assertFalse(lines.isEmpty());
    for (String line : lines) {
      JsonNode json = JSON.readTree(line);
      assertTrue(json.has("@timestamp") && json.has("log.level"), line);
    }
    assertTrue(lines.get(0).contains("starting the secret-syncer"), lines.get(0));
    assertTrue(lines.get(lines.size() - 1).contains("no cluster"), lines.toString());
  }

  @Test
  void syncerWritesTheSecretsThroughTheApiServerAndStopsOnSigterm(@TempDir Path logs)
      throws Exception {
    Path log = logs.resolve("syncer.log");
    int healthPort = freePort();
    try (MockCluster cluster = new MockCluster()) {
      ClusterFixtures fixtures = new ClusterFixtures(cluster.client());
      fixtures.namespace(ClusterFixtures.INSTALL_NAMESPACE, Map.of());
      fixtures.namespace("team-a", Map.of());
      fixtures.sourceSecret("alice");
      fixtures.imageAlternative("Always", "{}");

      Process syncer =
          root.start(
              List.of(
                  "syncer",
                  "--cluster-resource-namespace=" + ClusterFixtures.INSTALL_NAMESPACE,
                  "--leader-elect=false",
                  "--debounce=50ms",
                  "--health-port=" + healthPort,
                  "--log-format=text"),
              Map.of(
                  "KUBERNETES_MASTER", cluster.url(),
                  "KUBERNETES_AUTH_TOKEN", "not-a-secret",
                  "KUBERNETES_AUTH_TRYKUBECONFIG", "false",
                  "KUBERNETES_AUTH_TRYSERVICEACCOUNT", "false"),
              log);
      int exit;
      try {
        await("team-a's " + ClusterFixtures.INJECTED + " (log: " + log + ")")
            .atMost(Duration.ofSeconds(60))
            .until(
                () ->
                    !syncer.isAlive()
                        || Map.of(ClusterFixtures.REPOSITORY, "alice")
                            .equals(fixtures.injectedUsers("team-a")));
        assertTrue(syncer.isAlive(), () -> "the syncer exited: " + read(log));
        assertEquals(200, status(healthPort, "/readyz"), () -> read(log));
      } finally {
        exit = ImageRoot.stop(syncer);
      }
      String output = read(log);
      // SIGTERM is a clean stop: exit code 0, as --help documents.
      assertEquals(0, exit, output);
      assertTrue(output.contains("exiting: stopped, exit code 0"), output);
      assertTrue(output.contains("SyncerRuntime stopped"), output);
    }
  }

  private static int status(int port, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private static String read(Path log) {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
