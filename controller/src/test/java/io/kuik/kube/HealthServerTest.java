package io.kuik.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The health port as both processes serve it: {@code /healthz} 200 while the process serves and 503
 * once the core or an informer stopped (Kubernetes then restarts it), {@code /readyz} 503 with the
 * reason until it may work, {@code /metrics} in the Prometheus text format; the JDK server's bounds
 * on slow clients are set before it starts; a taken port fails the start.
 */
class HealthServerTest {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static HttpResponse<String> get(HealthServer server, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void healthAndReadinessAnswerWhatTheProcessSaysAndWhyNot() throws Exception {
    AtomicBoolean alive = new AtomicBoolean(true);
    AtomicBoolean ready = new AtomicBoolean(false);
    try (HealthServer server =
        HealthServer.start(
            0, new PrometheusRegistry(), alive::get, ready::get, () -> "writes held: no policy")) {
      HttpResponse<String> healthz = get(server, "/healthz");
      assertEquals(200, healthz.statusCode());
      assertEquals("alive\n", healthz.body());
      assertEquals(
          "text/plain; charset=utf-8", healthz.headers().firstValue("Content-Type").orElseThrow());
      HttpResponse<String> readyz = get(server, "/readyz");
      assertEquals(503, readyz.statusCode());
      assertEquals("writes held: no policy\n", readyz.body());

      ready.set(true);
      assertEquals(200, get(server, "/readyz").statusCode());
      assertEquals("ready\n", get(server, "/readyz").body());

      alive.set(false);
      HttpResponse<String> dead = get(server, "/healthz");
      assertEquals(503, dead.statusCode());
      assertEquals("the core or an informer stopped\n", dead.body());
    }
  }

  @Test
  void withoutAReasonReadinessNamesTheInformers() throws Exception {
    try (HealthServer server =
        HealthServer.start(0, new PrometheusRegistry(), () -> true, () -> false)) {
      assertEquals("informers not synced or stopped\n", get(server, "/readyz").body());
    }
  }

  /** A scrape that takes its time (a registry of many series) holds no probe of Kubernetes back. */
  @Test
  void aSlowScrapeHoldsNoHealthProbeBack() throws Exception {
    java.util.concurrent.CountDownLatch scraping = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    PrometheusRegistry registry = new PrometheusRegistry();
    io.prometheus.metrics.core.metrics.GaugeWithCallback.builder()
        .name("kuik_test_slow")
        .help("a gauge that waits for the test")
        .callback(
            callback -> {
              scraping.countDown();
              try {
                release.await(10, java.util.concurrent.TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              callback.call(1);
            })
        .register(registry);
    try (HealthServer server = HealthServer.start(0, registry, () -> true, () -> true)) {
      java.util.concurrent.CompletableFuture<HttpResponse<String>> scrape =
          java.util.concurrent.CompletableFuture.supplyAsync(
              () -> {
                try {
                  return get(server, "/metrics");
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      assertTrue(scraping.await(10, java.util.concurrent.TimeUnit.SECONDS), "scraping");

      HttpResponse<String> healthz =
          HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/healthz"))
                  .timeout(java.time.Duration.ofSeconds(2))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(200, healthz.statusCode(), "answered while the scrape waits");

      release.countDown();
      assertEquals(200, scrape.get(10, java.util.concurrent.TimeUnit.SECONDS).statusCode());
    }
  }

  @Test
  void metricsAreServedInThePrometheusTextFormat() throws Exception {
    PrometheusRegistry registry = new PrometheusRegistry();
    Counter.builder().name("kuik_test_total").help("a test counter").register(registry).inc(3);
    try (HealthServer server = HealthServer.start(0, registry, () -> true, () -> true)) {
      HttpResponse<String> metrics = get(server, "/metrics");
      assertEquals(200, metrics.statusCode());
      assertTrue(metrics.body().contains("kuik_test_total 3.0"), metrics.body());
    }
  }

  @Test
  void theSlowClientBoundsAreSetBeforeTheServerStarts() throws Exception {
    // The JDK reads them once per JVM: another test's server may have read them already, so this
    // checks the start sets them, not that the JDK took them (SlowClientsTest does, in a process).
    System.clearProperty("sun.net.httpserver.maxReqTime");
    System.clearProperty("sun.net.httpserver.maxRspTime");
    try (HealthServer server =
        HealthServer.start(0, new PrometheusRegistry(), () -> true, () -> true)) {
      assertEquals("10", System.getProperty("sun.net.httpserver.maxReqTime"));
      assertEquals("10", System.getProperty("sun.net.httpserver.maxRspTime"));
    }
  }

  @Test
  void aTakenPortFailsTheStartAndCloseFreesThePort() throws Exception {
    try (ServerSocket taken = new ServerSocket(0)) {
      assertThrows(
          IOException.class,
          () ->
              HealthServer.start(
                  taken.getLocalPort(), new PrometheusRegistry(), () -> true, () -> true));
    }
    HealthServer server = HealthServer.start(0, new PrometheusRegistry(), () -> true, () -> true);
    int port = server.port();
    server.close();
    try (ServerSocket again = new ServerSocket(port)) {
      assertEquals(port, again.getLocalPort(), "the port is free once the server closed");
    }
  }
}
