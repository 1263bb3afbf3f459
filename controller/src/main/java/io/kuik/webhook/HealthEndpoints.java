package io.kuik.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;

/**
 * {@code GET /healthz} (the process serves: always 200) and {@code GET /readyz} (200 once the
 * routing resource and namespace views have synced, 503 before), mounted on the HTTPS server and on
 * the plain health port the chart's probes use.
 */
final class HealthEndpoints {

  static final String HEALTHZ = "/healthz";
  static final String READYZ = "/readyz";

  private HealthEndpoints() {}

  static void mount(HttpServer server, BooleanSupplier ready) {
    server.createContext(HEALTHZ, exchange -> answer(exchange, HEALTHZ, true));
    server.createContext(READYZ, exchange -> answer(exchange, READYZ, ready.getAsBoolean()));
  }

  private static void answer(HttpExchange exchange, String path, boolean ok) throws IOException {
    try (exchange) {
      if (!exchange.getRequestURI().getPath().equals(path)) {
        text(exchange, 404, "not found\n");
      } else if (!exchange.getRequestMethod().equals("GET")
          && !exchange.getRequestMethod().equals("HEAD")) {
        exchange.getResponseHeaders().add("Allow", "GET, HEAD");
        text(exchange, 405, "use GET\n");
      } else if (ok) {
        text(exchange, 200, "ok\n");
      } else {
        text(exchange, 503, "not ready: the routing resources and namespaces are not synced\n");
      }
    }
  }

  static void text(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    if (exchange.getRequestMethod().equals("HEAD")) {
      exchange.sendResponseHeaders(status, -1);
      return;
    }
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
