package io.kuik.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The answers of /healthz and /readyz, on the plain health port. */
class HealthEndpointsTest {

  private static final String TEXT = "text/plain; charset=utf-8";

  private final AtomicBoolean ready = new AtomicBoolean();
  private final HttpClient client = HttpClient.newHttpClient();
  private HttpServer server;

  @BeforeEach
  void start() throws Exception {
    server =
        WebhookServer.startHealth(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), ready::get);
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private HttpResponse<String> send(String method, String path) throws Exception {
    URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    return client.send(
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(5))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Status, content type and body of an answer, in one value. */
  private static List<String> whole(HttpResponse<String> response) {
    return List.of(
        String.valueOf(response.statusCode()),
        response.headers().firstValue("Content-Type").orElse("none"),
        response.body());
  }

  @Test
  void answersHealthzOkInPlainText() throws Exception {
    assertEquals(List.of("200", TEXT, "ok\n"), whole(send("GET", "/healthz")));
  }

  @Test
  void answersReadyzNotReadyUntilTheViewsSyncedThenOk() throws Exception {
    assertEquals(
        List.of("503", TEXT, "not ready: the routing resources and namespaces are not synced\n"),
        whole(send("GET", "/readyz")));

    ready.set(true);

    assertEquals(List.of("200", TEXT, "ok\n"), whole(send("GET", "/readyz")));
  }

  @Test
  void answersHeadWithTheStatusAndNoBody() throws Exception {
    HttpResponse<String> notReady = send("HEAD", "/readyz");

    assertEquals(List.of("503", TEXT, ""), whole(notReady));
    assertEquals(List.of("200", TEXT, ""), whole(send("HEAD", "/healthz")));
  }

  @Test
  void refusesOtherMethodsNamingTheAllowedOnes() throws Exception {
    HttpResponse<String> post = send("POST", "/healthz");

    assertEquals(List.of("405", TEXT, "use GET\n"), whole(post));
    assertEquals(List.of("GET, HEAD"), post.headers().allValues("Allow"));
    assertEquals(List.of("405", TEXT, "use GET\n"), whole(send("DELETE", "/readyz")));
  }

  @Test
  void knowsNoPathBelowTheEndpoints() throws Exception {
    assertEquals(List.of("404", TEXT, "not found\n"), whole(send("GET", "/healthz/deep")));
    assertEquals(List.of("404", TEXT, "not found\n"), whole(send("GET", "/readyzz")));
  }
}
