package io.kuik.webhook;

import static io.kuik.webhook.AdmissionFixtures.MIRROR_HAS_EVERYTHING;
import static io.kuik.webhook.AdmissionFixtures.handler;
import static io.kuik.webhook.AdmissionFixtures.recorded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
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
    server =
        WebhookServer.start(
            new WebhookServer.Settings(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                certFile,
                keyFile,
                Duration.ZERO,
                64 * 1024,
                4),
            handler(MIRROR_HAS_EVERYTHING),
            ready::get);
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
  }

  @Test
  void servesOnlyPostOnTheWebhookPath() throws Exception {
    assertEquals(405, get("/mutate-pods").statusCode());
    assertEquals(404, post("/mutate-pods-please", recorded("pod-create.json")).statusCode());
    assertEquals(404, get("/metrics").statusCode());
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
