package io.kuik.image;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
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

/**
 * The image runs from nothing but its own root filesystem, read-only but for an empty {@code /tmp},
 * as uid 65532 ({@link ImageRoot}): the commands answer, and a real {@code kuik syncer} writes the
 * Secrets of an Always ImageAlternative through fabric8's mock API server, then stops cleanly on
 * SIGTERM.
 */
class ImageRunsFromItsOwnRootIT {

  /**
   * The JVM's first line on stderr (merged into the logs here): it echoes the image's
   * JAVA_TOOL_OPTIONS, the price of options the chart can replace
   * (docs/decisions/0013-the-image.md).
   */
  private static final String JVM_ECHO =
      "Picked up JAVA_TOOL_OPTIONS: " + ChartJvmOptions.written("syncer");

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
        List.of(JVM_ECHO, "kuik " + System.getProperty("kuik.image.version")),
        output.lines().toList());
  }

  @Test
  void explainsTheSyncersFlags(@TempDir Path logs) throws Exception {
    Path log = logs.resolve("help.log");

    int exit = root.run(List.of("syncer", "--help"), log);

    String output = Files.readString(log);
    assertAll(
        () -> assertEquals(0, exit, output),
        () -> assertTrue(output.startsWith(JVM_ECHO + "\nUsage: kuik syncer"), output),
        () -> assertTrue(output.contains("--cluster-resource-namespace"), output));
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
      assertTrue(output.contains("exiting: SHUTDOWN"), output);
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
