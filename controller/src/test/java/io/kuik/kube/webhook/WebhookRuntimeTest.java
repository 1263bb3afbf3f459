package io.kuik.kube.webhook;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.kuik.kube.ExitReason;
import io.kuik.kube.Exits;
import io.kuik.kube.MockCluster;
import io.kuik.kube.ProcessLeftovers;
import io.kuik.webhook.ProberSettings;
import io.kuik.webhook.TestCertificates;
import io.kuik.webhook.WebhookServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The webhook's process on its own, without the command around it: ready once its informers listed,
 * and once closed, not ready, ended as stopped, its two ports free.
 */
class WebhookRuntimeTest {

  private final MockCluster cluster = new MockCluster();
  private WebhookRuntime runtime;

  @AfterEach
  void stop() {
    if (runtime != null) {
      runtime.close();
    }
    cluster.close();
  }

  @Test
  void closedItIsNotReadyEndsAsStoppedAndFreesBothPorts(@TempDir Path tls) throws Exception {
    cluster
        .client()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName("kuik-system").endMetadata().build())
        .create();
    TestCertificates.Pair pair = TestCertificates.generate(tls, "webhook", "EC");
    Path cert = tls.resolve("tls.crt");
    Path key = tls.resolve("tls.key");
    TestCertificates.write(cert, key, pair, TestCertificates.sec1Pem(pair.key()));
    runtime =
        WebhookRuntime.start(
            new WebhookRuntimeSettings(
                "kuik-system",
                WebhookServer.Settings.of(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), cert, key),
                0,
                ProberSettings.defaults(),
                Duration.ZERO),
            cluster.client());
    await("ready").atMost(Duration.ofSeconds(20)).until(runtime::isReady);
    int port = runtime.port();
    int healthPort = runtime.healthPort();
    assertTrue(port > 0 && healthPort > 0 && port != healthPort, port + " and " + healthPort);

    runtime.close();

    assertFalse(runtime.isReady());
    assertEquals(ExitReason.SHUTDOWN, Exits.of(runtime).get(5, TimeUnit.SECONDS));
    ProcessLeftovers.assertFree(port, healthPort);
  }
}
