package io.kuik.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A registry reduced to what the prober asks: {@code HEAD /v2/<name>/manifests/<reference>} answers
 * 200 for the manifests it was given, 404 for any other, and 401 with a Basic challenge when a
 * manifest needs a credential the request did not bring. Plain HTTP on {@code 127.0.0.2}: loopback,
 * yet not a host the prober speaks plain HTTP to unless it is listed as insecure.
 */
final class InTestRegistry implements AutoCloseable {

  private final HttpServer server;
  private final Map<String, String> manifests = new ConcurrentHashMap<>();
  private final AtomicInteger requests = new AtomicInteger();

  InTestRegistry() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.2", 0), 0);
    server.createContext("/v2/", this::answer);
    server.start();
  }

  /** {@code 127.0.0.2:<port>}, the registry part of its images. */
  String host() {
    return "127.0.0.2:" + server.getAddress().getPort();
  }

  /** Serves {@code <name>:<tag>} to whoever brings {@code user:password}. */
  void serve(String name, String tag, String user, String password) {
    String basic =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    manifests.put("/v2/" + name + "/manifests/" + tag, basic);
  }

  /** Requests received so far. */
  int requests() {
    return requests.get();
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      requests.incrementAndGet();
      String authorization = manifests.get(exchange.getRequestURI().getPath());
      int status;
      if (!exchange.getRequestMethod().equals("HEAD") || authorization == null) {
        status = 404;
      } else if (authorization.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
        status = 200;
      } else {
        exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"kuik-test\"");
        status = 401;
      }
      exchange.sendResponseHeaders(status, -1);
    }
  }
}
