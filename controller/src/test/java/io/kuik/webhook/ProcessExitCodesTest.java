package io.kuik.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.kuik.kube.ForkedKuik;
import io.kuik.kube.MockCluster;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exit codes both commands document in {@code --help}, from real processes: SIGTERM, which is
 * how Kubernetes stops a container, ends a clean stop with 0.
 */
class ProcessExitCodesTest {

  private static final String INSTALL_NAMESPACE = "kuik-system";

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
