package io.kuik.kube;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kuik.webhook.ServerLimits;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

/**
 * The health port: {@code /healthz} (the process serves), {@code /readyz} (the process can do its
 * work: for the syncer, its informers have synced and the admission policy that bounds its writes
 * is in place; a standby is ready too, since readiness only gates traffic and the syncer takes
 * none), and {@code /metrics} in the Prometheus text format. A failing check answers why.
 */
public final class HealthServer implements AutoCloseable {

  private final HttpServer server;
  private final ExecutorService threads;

  private HealthServer(HttpServer server, ExecutorService threads) {
    this.server = server;
    this.threads = threads;
  }

  public static HealthServer start(
      int port, PrometheusRegistry registry, BooleanSupplier alive, BooleanSupplier ready)
      throws IOException {
    return start(port, registry, alive, ready, () -> "informers not synced or stopped");
  }

  /** With what {@code /readyz} says while not ready. */
  public static HealthServer start(
      int port,
      PrometheusRegistry registry,
      BooleanSupplier alive,
      BooleanSupplier ready,
      java.util.function.Supplier<String> whyNotReady)
      throws IOException {
    ServerLimits.apply(); // before the process's first server: the JDK reads them once
    HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
    server.createContext("/metrics", new MetricsHandler(registry));
    server.createContext(
        "/healthz",
        exchange ->
            answer(exchange, alive.getAsBoolean(), "alive", "the core or an informer stopped"));
    server.createContext(
        "/readyz",
        exchange -> {
          boolean ok = ready.getAsBoolean();
          answer(exchange, ok, "ready", ok ? "" : whyNotReady.get());
        });
    ExecutorService threads =
        Executors.newFixedThreadPool(
            2,
            task -> {
              Thread thread = new Thread(task, "kuik-health");
              thread.setDaemon(true);
              return thread;
            });
    server.setExecutor(threads);
    server.start();
    return new HealthServer(server, threads);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }

  private static void answer(HttpExchange exchange, boolean ok, String yes, String no)
      throws IOException {
    byte[] body = ((ok ? yes : no) + "\n").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(ok ? 200 : 503, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
