package io.kuik.webhook;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.kuik.kube.ForkedKuik;
import io.kuik.kube.MockCluster;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that sends half a request and stalls holds a connection and a thread of the webhook for
 * the JDK server's 10 s bound, then is cut off ({@link ServerLimits}, decision 0077). The real
 * process, as the image runs it: the JDK reads the bound once, when the process's first server (the
 * health port) is created, so a bound set later would never hold.
 */
class SlowClientsTest {

  private final MockCluster cluster = new MockCluster();

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void aClientThatStallsMidRequestIsCutOffAtTheBound(@TempDir Path tls) throws Exception {
    cluster
        .client()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName("kuik-system").endMetadata().build())
        .create();
    TestCertificates.Pair pair = TestCertificates.generate(tls, "webhook", "EC");
    Path cert = tls.resolve("tls.crt");
    Path key = tls.resolve("tls.key");
    TestCertificates.write(cert, key, pair, TestCertificates.pkcs8Pem(pair.key()));
    int port = ForkedKuik.freePort();
    try (ForkedKuik webhook =
        ForkedKuik.start(
                cluster.kubeconfig(),
                "webhook",
                "--cluster-resource-namespace=kuik-system",
                "--port=" + port,
                "--tls-cert-file=" + cert,
                "--tls-key-file=" + key)
            .awaitReady()) {
      try (SSLSocket socket =
          (SSLSocket)
              TestCertificates.trusting(pair.certificate())
                  .getSocketFactory()
                  .createSocket("127.0.0.1", port)) {
        socket.setSoTimeout((int) Duration.ofSeconds(60).toMillis());
        socket.startHandshake();
        OutputStream out = socket.getOutputStream();
        out.write(
            "POST /mutate-pods HTTP/1.1\r\nHost: kuik\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        long started = System.nanoTime();
        boolean closed;
        try {
          closed = socket.getInputStream().read() == -1;
        } catch (IOException cutOff) {
          closed = !(cutOff instanceof java.net.SocketTimeoutException);
        }
        Duration held = Duration.ofNanos(System.nanoTime() - started);

        assertTrue(closed, "the stalled connection was still open after 60 s: " + webhook.stderr());
        assertTrue(
            held.compareTo(Duration.ofSeconds(8)) >= 0,
            "cut off by the bound, not before it: " + held);
      }
    }
  }
}
