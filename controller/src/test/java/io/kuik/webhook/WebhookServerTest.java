package io.kuik.webhook;

import static io.kuik.webhook.AdmissionFixtures.MIRROR_HAS_EVERYTHING;
import static io.kuik.webhook.AdmissionFixtures.handler;
import static io.kuik.webhook.AdmissionFixtures.recorded;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The webhook end to end over real HTTPS, with certificates made by keytool in the test. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebhookServerTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private TestCertificates.Pair first;
  private TestCertificates.Pair second;
  private Path directory;
  private Path certFile;
  private Path keyFile;
  private final AtomicBoolean ready = new AtomicBoolean();
  private WebhookServer server;

  /** What the server's observer was told, one {@code result code} per request, in order. */
  private final List<String> observed = new CopyOnWriteArrayList<>();

  private final List<Long> observedNanos = new CopyOnWriteArrayList<>();
  private final List<Thread> observingThreads = new CopyOnWriteArrayList<>();
  private long started;

  @BeforeAll
  void generate(@TempDir Path directory) throws Exception {
    this.directory = directory;
    first = TestCertificates.generate(directory, "first", "RSA");
    second = TestCertificates.generate(directory, "second", "EC");
  }

  @BeforeEach
  void start() throws Exception {
    certFile = Files.createTempFile(directory, "tls", ".crt");
    keyFile = Files.createTempFile(directory, "tls", ".key");
    // Helm's genSignedCert writes PKCS#1: the first certificate comes that way.
    TestCertificates.write(certFile, keyFile, first, TestCertificates.pkcs1Pem(first.key()));
    ready.set(false);
    observed.clear();
    observedNanos.clear();
    observingThreads.clear();
    started = System.nanoTime();
    server = start(4);
  }

  private WebhookServer start(int threads) throws Exception {
    return WebhookServer.start(
        new WebhookServer.Settings(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            certFile,
            keyFile,
            Duration.ZERO,
            64 * 1024,
            threads),
        handler(MIRROR_HAS_EVERYTHING),
        ready::get,
        (result, code, nanos) -> {
          observingThreads.add(Thread.currentThread());
          observedNanos.add(nanos);
          observed.add(result + " " + code);
        });
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private URI uri(String path) {
    return URI.create("https://127.0.0.1:" + server.address().getPort() + path);
  }

  /** A new client, trusting both certificates, that cannot resume an earlier TLS session. */
  private HttpClient client() throws IOException, GeneralSecurityException {
    SSLContext tls = TestCertificates.trusting(first.certificate(), second.certificate());
    return HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(5)).build();
  }

  private HttpResponse<String> post(String path, byte[] body) throws Exception {
    return client()
        .send(
            HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws Exception {
    return client()
        .send(
            HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private X509Certificate served() throws Exception {
    HttpResponse<String> response = get("/healthz");
    return (X509Certificate) response.sslSession().orElseThrow().getPeerCertificates()[0];
  }

  @Test
  void answersARecordedPodCreationWithAPatch() throws Exception {
    HttpResponse<String> response = post("/mutate-pods", recorded("pod-create.json"));

    assertEquals(200, response.statusCode());
    assertEquals("application/json", response.headers().firstValue("Content-Type").orElse(""));
    JsonNode answer = JSON.readTree(response.body());
    assertEquals("JSONPatch", answer.at("/response/patchType").asString());
    JsonNode pod = AdmissionHandlerTest.patched("pod-create.json", answer);
    assertEquals(
        "registry.example.com/mirror/docker.io/library/nginx:1.27",
        pod.at("/spec/containers/0/image").asString());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "not-json.txt",
        "wrong-kind.json",
        "missing-request.json",
        "not-a-pod.json",
        "truncated.json"
      })
  void allowsMalformedReviewsUnchanged(String file) throws Exception {
    HttpResponse<String> response = post("/mutate-pods", recorded(file));

    assertEquals(200, response.statusCode());
    JsonNode answer = JSON.readTree(response.body());
    assertTrue(answer.at("/response/allowed").asBoolean());
    assertTrue(answer.at("/response/patch").isMissingNode());
  }

  @Test
  void refusesABodyOverTheLimitWithoutReadingIt() throws Exception {
    assertEquals(413, post("/mutate-pods", new byte[64 * 1024 + 1]).statusCode());
    await().until(() -> observed.size() == 1);
    assertEquals(List.of("too_large 413"), observed);
  }

  @Test
  void answersABodyOfExactlyTheLimit() throws Exception {
    byte[] review = recorded("pod-create.json");
    byte[] padded = new byte[64 * 1024];
    Arrays.fill(padded, (byte) ' ');
    System.arraycopy(review, 0, padded, 0, review.length);

    HttpResponse<String> response = post("/mutate-pods", padded);

    assertEquals(200, response.statusCode());
    assertEquals("JSONPatch", JSON.readTree(response.body()).at("/response/patchType").asString());
  }

  @Test
  void servesOnlyPostOnTheWebhookPath() throws Exception {
    HttpResponse<String> wrongMethod = get("/mutate-pods");
    assertEquals(405, wrongMethod.statusCode());
    assertEquals(List.of("POST"), wrongMethod.headers().allValues("Allow"));
    assertEquals(404, post("/mutate-pods-please", recorded("pod-create.json")).statusCode());
    assertEquals(404, get("/metrics").statusCode());

    await().until(() -> observed.size() == 2);
    assertEquals(List.of("wrong_method 405", "not_found 404"), observed);
  }

  @Test
  void tellsTheObserverOfEachAdmissionWithItsTimeOnAnAdmissionThread() throws Exception {
    post("/mutate-pods", recorded("pod-create.json"));
    post("/mutate-pods", recorded("not-json.txt"));
    await().until(() -> observed.size() == 2);
    long elapsed = System.nanoTime() - started;

    assertEquals(List.of("answered 200", "answered 200"), observed);
    for (long nanos : observedNanos) {
      assertTrue(nanos > 0 && nanos < elapsed, nanos + " of " + elapsed);
    }
    for (Thread thread : observingThreads) {
      assertTrue(thread.getName().startsWith("kuik-admission-"), thread.getName());
      assertTrue(thread.isDaemon(), thread.getName() + " never holds the process open");
    }
  }

  @Test
  void aClientsAdmissionsOneAfterTheOtherNeverUseUpItsShare() throws Exception {
    int share = ClientShares.ofThreads(4).share();
    for (int i = 0; i <= share * 2; i++) {
      assertEquals(200, post("/mutate-pods", recorded("pod-create.json")).statusCode(), "#" + i);
    }
  }

  @Test
  void aServerOfOneAdmissionThreadServes() throws Exception {
    try (WebhookServer alone = start(1)) {
      HttpResponse<String> response =
          client()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              "https://127.0.0.1:" + alone.address().getPort() + "/mutate-pods"))
                      .POST(HttpRequest.BodyPublishers.ofByteArray(recorded("pod-create.json")))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());

      assertEquals(200, response.statusCode());
    }
  }

  @Test
  void closingStopsListening() throws Exception {
    int port = server.address().getPort();

    server.close();

    assertThrows(
        ConnectException.class,
        () -> new Socket(InetAddress.getLoopbackAddress(), port).close(),
        "nothing listens on the port any more");
  }

  @Test
  void setsTheJdkServersTimesForASlowClientUnlessTheJvmWasGivenItsOwn() throws Exception {
    String request = System.getProperty("sun.net.httpserver.maxReqTime");
    String answer = System.getProperty("sun.net.httpserver.maxRspTime");
    try {
      System.clearProperty("sun.net.httpserver.maxReqTime");
      System.setProperty("sun.net.httpserver.maxRspTime", "3");

      start(4).close();

      assertEquals(
          List.of(ServerLimits.SECONDS, "3"),
          List.of(
              System.getProperty("sun.net.httpserver.maxReqTime"),
              System.getProperty("sun.net.httpserver.maxRspTime")));
    } finally {
      restore("sun.net.httpserver.maxReqTime", request);
      restore("sun.net.httpserver.maxRspTime", answer);
    }
  }

  private static void restore(String property, String value) {
    if (value == null) {
      System.clearProperty(property);
    } else {
      System.setProperty(property, value);
    }
  }

  @Test
  void isHealthyAtOnceAndReadyOnceTheViewsSynced() throws Exception {
    assertEquals(200, get("/healthz").statusCode());
    assertEquals(503, get("/readyz").statusCode());

    ready.set(true);

    assertEquals(200, get("/readyz").statusCode());
  }

  @Test
  void servesTheHealthPortOverPlainHttp() throws Exception {
    HttpServer health =
        WebhookServer.startHealth(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), ready::get);
    try {
      HttpClient plain = HttpClient.newHttpClient();
      URI readyz = URI.create("http://127.0.0.1:" + health.getAddress().getPort() + "/readyz");
      assertEquals(
          503,
          plain
              .send(HttpRequest.newBuilder(readyz).build(), HttpResponse.BodyHandlers.discarding())
              .statusCode());
      ready.set(true);
      assertEquals(
          200,
          plain
              .send(HttpRequest.newBuilder(readyz).build(), HttpResponse.BodyHandlers.discarding())
              .statusCode());
    } finally {
      health.stop(0);
    }
  }

  @Test
  void picksUpARotatedCertificateAndIgnoresAHalfWrittenOne() throws Exception {
    assertEquals(first.certificate(), served());

    // The certificate file changes first: a pair that does not match is never served.
    Files.writeString(certFile, TestCertificates.certificatePem(second.certificate()));
    assertEquals(first.certificate(), served());

    // cert-manager writes an ECDSA key as SEC1.
    Files.writeString(keyFile, TestCertificates.sec1Pem(second.key()));
    assertEquals(second.certificate(), served());
  }

  @Test
  void refusesToStartWithoutAUsableCertificate() throws Exception {
    Path broken = Files.createTempFile(directory, "broken", ".key");
    Files.writeString(broken, TestCertificates.pkcs8Pem(second.key()));

    GeneralSecurityException refused =
        assertThrows(
            GeneralSecurityException.class,
            () ->
                WebhookServer.start(
                    WebhookServer.Settings.of(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        certFile,
                        broken),
                    handler(MIRROR_HAS_EVERYTHING),
                    ready::get));
    assertTrue(refused.getMessage().contains(broken.toString()), refused.getMessage());
  }
}
