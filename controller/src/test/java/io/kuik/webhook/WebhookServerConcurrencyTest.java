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
import java.util.concurrent.CopyOnWriteArrayList;
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

  /**
   * More than the former 16 admission threads and 64 queued admissions together, and within one
   * client's share of the 128 threads (96).
   */
  private static final int WAITING = 90;

  @Test
  void answersAnAdmissionWhileNinetyOthersWaitForTheirProbes(@TempDir Path directory)
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

  /**
   * A pod on one address that floods the webhook gets its share of the admission threads and a 429
   * for each request beyond, before its body is read; a caller on another address (127.0.0.2, as
   * the API server would be) is still routed meanwhile.
   */
  @Test
  void aClientOverItsShareIsAnswered429WhileAnotherClientIsStillRouted(@TempDir Path directory)
      throws Exception {
    TestCertificates.Pair pair = TestCertificates.generate(directory, "webhook", "EC");
    Path cert = directory.resolve("tls.crt");
    Path key = directory.resolve("tls.key");
    TestCertificates.write(cert, key, pair, TestCertificates.pkcs8Pem(pair.key()));
    int threads = 8;
    int share = ClientShares.ofThreads(threads).share();
    AtomicInteger probes = new AtomicInteger();
    CountDownLatch registryAnswers = new CountDownLatch(1);
    RegistryProber firstOnesWait =
        candidates -> {
          if (probes.incrementAndGet() <= share) {
            try {
              registryAnswers.await();
            } catch (InterruptedException interrupted) {
              Thread.currentThread().interrupt();
            }
          }
          return Collections.nCopies(candidates.size(), RegistryProber.Availability.AVAILABLE);
        };
    javax.net.ssl.SSLContext trusting = TestCertificates.trusting(pair.certificate());
    HttpClient flooder =
        HttpClient.newBuilder().sslContext(trusting).version(HttpClient.Version.HTTP_1_1).build();
    List<String> refusals = new CopyOnWriteArrayList<>();
    long began = System.nanoTime();

    try (WebhookServer server =
        WebhookServer.start(
            new WebhookServer.Settings(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                cert,
                key,
                WebhookServer.Settings.DEFAULT_RELOAD_CHECK_INTERVAL,
                WebhookServer.Settings.DEFAULT_MAX_BODY_BYTES,
                threads),
            handler(firstOnesWait),
            () -> true,
            (result, code, nanos) -> {
              if (code == 429) {
                boolean timed = nanos > 0 && nanos < System.nanoTime() - began;
                refusals.add(result + " " + code + (timed ? "" : " timed " + nanos));
              }
            })) {
      int port = server.address().getPort();
      URI mutate = URI.create("https://127.0.0.1:" + port + "/mutate-pods");
      List<CompletableFuture<HttpResponse<String>>> waiting = new ArrayList<>();
      try {
        for (int i = 0; i < share; i++) {
          waiting.add(
              flooder.sendAsync(
                  post(mutate, "pod-create.json"), HttpResponse.BodyHandlers.ofString()));
        }
        await("the flooder's share waiting on the registry")
            .atMost(Duration.ofSeconds(30))
            .until(() -> probes.get() == share);

        HttpResponse<String> overItsShare =
            flooder.send(post(mutate, "pod-create.json"), HttpResponse.BodyHandlers.ofString());
        int afterTheRefusal = probes.get();
        String fromElsewhere = postFrom("127.0.0.2", port, trusting, "pod-create.json");

        assertEquals(429, overItsShare.statusCode(), overItsShare.body());
        await("the refusal observed")
            .atMost(Duration.ofSeconds(10))
            .until(() -> !refusals.isEmpty());
        assertEquals(List.of("over_its_share 429"), refusals);
        assertEquals(share, afterTheRefusal, "the one over its share was never routed");
        org.junit.jupiter.api.Assertions.assertTrue(
            fromElsewhere.startsWith("HTTP/1.1 200") && fromElsewhere.contains("\"patch\""),
            fromElsewhere);
      } finally {
        registryAnswers.countDown();
      }
      for (CompletableFuture<HttpResponse<String>> answer : waiting) {
        assertEquals(200, answer.join().statusCode());
      }
    }
  }

  /** A POST of the review from the local address {@code from}, HTTP/1.1 over TLS by hand. */
  private static String postFrom(
      String from, int port, javax.net.ssl.SSLContext trusting, String review) throws Exception {
    byte[] body = recorded(review);
    try (javax.net.ssl.SSLSocket socket =
        (javax.net.ssl.SSLSocket) trusting.getSocketFactory().createSocket()) {
      socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
      socket.setSoTimeout(30_000);
      String head =
          "POST /mutate-pods HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
              + "Content-Length: "
              + body.length
              + "\r\nConnection: close\r\n\r\n";
      socket.getOutputStream().write(head.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      socket.getOutputStream().write(body);
      socket.getOutputStream().flush();
      return new String(
          socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
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
