package io.kuik.webhook;

import static io.kuik.webhook.AdmissionFixtures.handler;
import static io.kuik.webhook.AdmissionFixtures.recorded;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.ports.RegistryProber;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The webhook's HTTPS endpoint with its default settings when many admissions wait on registries at
 * once, as they do when a registry times out (each new image there waits the whole probe timeout):
 * the waiting ones must not hold up an admission that needs no probe (decisions, "Webhook under
 * load").
 */
class WebhookServerConcurrencyTest {

  /** More than the former 16 admission threads and 64 queued admissions together. */
  private static final int WAITING = 100;

  @Test
  void answersAnAdmissionWhileAHundredOthersWaitForTheirProbes(@TempDir Path directory)
      throws Exception {
    TestCertificates.Pair pair = TestCertificates.generate(directory, "webhook", "EC");
    Path cert = directory.resolve("tls.crt");
    Path key = directory.resolve("tls.key");
    TestCertificates.write(cert, key, pair, TestCertificates.pkcs8Pem(pair.key()));
    AtomicInteger probing = new AtomicInteger();
    CountDownLatch registryAnswers = new CountDownLatch(1);
    RegistryProber slowRegistry =
        candidates -> {
          probing.incrementAndGet();
          try {
            registryAnswers.await();
          } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
          }
          return Collections.nCopies(candidates.size(), RegistryProber.Availability.AVAILABLE);
        };
    HttpClient client =
        HttpClient.newBuilder()
            .sslContext(TestCertificates.trusting(pair.certificate()))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    try (WebhookServer server =
        WebhookServer.start(
            WebhookServer.Settings.of(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), cert, key),
            handler(slowRegistry),
            () -> true)) {
      URI mutate = URI.create("https://127.0.0.1:" + server.address().getPort() + "/mutate-pods");
      List<CompletableFuture<HttpResponse<String>>> waiting = new ArrayList<>();
      try {
        for (int i = 0; i < WAITING; i++) {
          waiting.add(
              client.sendAsync(
                  post(mutate, "pod-create.json"), HttpResponse.BodyHandlers.ofString()));
        }
        await("every pod creation waiting for the registry")
            .atMost(Duration.ofSeconds(30))
            .until(() -> probing.get() == WAITING);

        HttpResponse<String> update =
            client.send(post(mutate, "pod-update.json"), HttpResponse.BodyHandlers.ofString());

        assertEquals(200, update.statusCode(), "a pod update needs no probe");
      } finally {
        registryAnswers.countDown();
      }
      for (CompletableFuture<HttpResponse<String>> answer : waiting) {
        assertEquals(200, answer.join().statusCode());
      }
    }
  }

  private static HttpRequest post(URI uri, String review) {
    return HttpRequest.newBuilder(uri)
        .timeout(Duration.ofSeconds(60))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(recorded(review)))
        .build();
  }
}
