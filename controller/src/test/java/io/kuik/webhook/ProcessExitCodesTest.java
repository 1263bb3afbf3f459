package io.kuik.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.kuik.kube.ForkedKuik;
import io.kuik.kube.MockCluster;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * The exit codes both commands document in {@code --help}, from real processes: SIGTERM, which is
 * how Kubernetes stops a container, ends a clean stop with 0.
 */
class ProcessExitCodesTest {

  private static final String INSTALL_NAMESPACE = "kuik-system";
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final MockCluster cluster = new MockCluster();

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void sigtermStopsTheSyncerCleanlyWithExitCodeZero() throws Exception {
    namespace();
    try (ForkedKuik syncer =
        ForkedKuik.start(
                cluster.kubeconfig(),
                "syncer",
                "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
                "--leader-elect=false")
            .awaitReady()) {
      assertEquals(200, syncer.get("/readyz"), syncer.stderr());

      assertEquals(0, syncer.terminate(), syncer.stderr());
      assertTrue(syncer.stderr().contains("\"stopped\""), syncer.stderr());
    }
  }

  @Test
  void sigtermStopsTheWebhookCleanlyWithExitCodeZero(@TempDir Path tls) throws Exception {
    namespace();
    TestCertificates.Pair pair = TestCertificates.generate(tls, "webhook", "EC");
    Path cert = tls.resolve("tls.crt");
    Path key = tls.resolve("tls.key");
    TestCertificates.write(cert, key, pair, TestCertificates.sec1Pem(pair.key()));
    try (ForkedKuik webhook =
        ForkedKuik.start(
                cluster.kubeconfig(),
                "webhook",
                "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
                "--port=0",
                "--tls-cert-file=" + cert,
                "--tls-key-file=" + key,
                "--shutdown-delay=0s")
            .awaitReady()) {
      assertEquals(200, webhook.get("/readyz"), webhook.stderr());

      assertEquals(0, webhook.terminate(), webhook.stderr());
      assertTrue(webhook.stderr().contains("\"stopped\""), webhook.stderr());
    }
  }

  @Test
  void aClosedApiPortFailsBothCommandsWithinSecondsNamingTheServer(@TempDir Path dir)
      throws Exception {
    int closed = ForkedKuik.freePort();
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(kubeconfig, kubeconfig("http://127.0.0.1:" + closed));
    Path[] tls = tls(dir);
    for (String[] args :
        List.of(
            new String[] {"syncer", "--cluster-resource-namespace=kuik-system"},
            new String[] {
              "webhook",
              "--cluster-resource-namespace=kuik-system",
              "--port=0",
              "--tls-cert-file=" + tls[0],
              "--tls-key-file=" + tls[1]
            })) {
      try (ForkedKuik process = ForkedKuik.start(kubeconfig, args)) {
        // Not a timing test (the machine's load decides the seconds): both must end, exit 1,
        // and name the server. Both commands share ClusterConnection's two retries.
        assertEquals(1, process.awaitExit(Duration.ofSeconds(90)), process.stderr());
        assertTrue(
            process
                .stderr()
                .contains("could not list from the API server http://127.0.0.1:" + closed),
            process.stderr());
        assertTrue(process.stderr().contains("(from kubeconfig " + kubeconfig), process.stderr());
      }
    }
  }

  @Test
  void aMissingKubeconfigIsNamedInsteadOfFallingBackToKubernetesDefaultSvc() throws Exception {
    try (ForkedKuik syncer =
        ForkedKuik.start(
            Path.of("/nonexistent/kubeconfig"),
            "syncer",
            "--cluster-resource-namespace=kuik-system")) {
      assertEquals(1, syncer.awaitExit(Duration.ofSeconds(20)), syncer.stderr());
      assertTrue(
          syncer
              .stderr()
              .contains(
                  "kubeconfig /nonexistent/kubeconfig (system property kubeconfig) does not exist"),
          syncer.stderr());
      assertFalse(syncer.stderr().contains("kubernetes.default.svc"), syncer.stderr());
    }
  }

  @Test
  void aTakenHealthPortIsOneJsonLogLineAndExitCodeOne(@TempDir Path dir) throws Exception {
    namespace();
    Path[] tls = tls(dir);
    try (ServerSocket taken = new ServerSocket(0)) {
      for (String[] args :
          List.of(
              new String[] {"syncer", "--cluster-resource-namespace=kuik-system"},
              new String[] {
                "webhook",
                "--cluster-resource-namespace=kuik-system",
                "--port=0",
                "--tls-cert-file=" + tls[0],
                "--tls-key-file=" + tls[1]
              })) {
        try (ForkedKuik process =
            ForkedKuik.start(cluster.kubeconfig(), taken.getLocalPort(), args)) {
          assertEquals(1, process.awaitExit(Duration.ofSeconds(30)), process.stderr());
          List<String> lines = process.stderr().lines().toList();
          for (String line : lines) {
            assertTrue(JSON.readTree(line).has("message"), "not a JSON log line: " + line);
          }
          assertTrue(
              lines.stream()
                  .anyMatch(
                      line ->
                          line.contains("\"log.level\":\"ERROR\"")
                              && line.contains("port " + taken.getLocalPort())
                              && line.contains("Address already in use")),
              process.stderr());
        }
      }
    }
  }

  private static Path[] tls(Path dir) throws Exception {
    TestCertificates.Pair pair = TestCertificates.generate(dir, "webhook", "EC");
    Path cert = dir.resolve("tls.crt");
    Path key = dir.resolve("tls.key");
    TestCertificates.write(cert, key, pair, TestCertificates.sec1Pem(pair.key()));
    return new Path[] {cert, key};
  }

  private static String kubeconfig(String server) {
    return String.join(
        "\n",
        "apiVersion: v1",
        "kind: Config",
        "clusters:",
        "- {name: c, cluster: {server: \"" + server + "\"}}",
        "contexts:",
        "- {name: c, context: {cluster: c, user: u}}",
        "current-context: c",
        "users:",
        "- {name: u, user: {token: not-a-secret}}",
        "");
  }

  private void namespace() {
    cluster
        .client()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(INSTALL_NAMESPACE)
                .endMetadata()
                .build())
        .create();
  }
}
