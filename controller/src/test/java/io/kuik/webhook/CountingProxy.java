package io.kuik.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP proxy in front of a registry that counts the requests reaching it and can hold
 * them at a gate, so a test sees how many requests the prober really sent.
 */
final class CountingProxy implements AutoCloseable {

  private static final Set<String> HOP_BY_HOP =
      Set.of(
          "connection",
          "content-length",
          "expect",
          "host",
          "upgrade",
          "transfer-encoding",
          "keep-alive",
          "date");

  private final HttpServer server;
  private final HttpClient http = HttpClient.newHttpClient();
  private final URI target;
  private volatile CountDownLatch gate = new CountDownLatch(0);
  final AtomicInteger requests = new AtomicInteger();

  CountingProxy(String targetHost) throws IOException {
    this.target = URI.create("http://" + targetHost);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/", this::forward);
    server.start();
  }

  String host() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  /** Holds every request until {@link #open()}. */
  void hold() {
    gate = new CountDownLatch(1);
  }

  void open() {
    gate.countDown();
  }

  @Override
  public void close() {
    open();
    server.stop(0);
  }

  private void forward(HttpExchange exchange) throws IOException {
    requests.incrementAndGet();
    try {
      gate.await(30, TimeUnit.SECONDS);
      URI uri = target.resolve(exchange.getRequestURI().toString());
      byte[] body = exchange.getRequestBody().readAllBytes();
      HttpRequest.Builder request =
          HttpRequest.newBuilder(uri)
              .method(
                  exchange.getRequestMethod(),
                  body.length == 0
                      ? HttpRequest.BodyPublishers.noBody()
                      : HttpRequest.BodyPublishers.ofByteArray(body));
      for (Map.Entry<String, List<String>> header : exchange.getRequestHeaders().entrySet()) {
        if (!HOP_BY_HOP.contains(header.getKey().toLowerCase(Locale.ROOT))) {
          header.getValue().forEach(value -> request.header(header.getKey(), value));
        }
      }
      HttpResponse<byte[]> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      response
          .headers()
          .map()
          .forEach(
              (name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
                  exchange.getResponseHeaders().put(name, values);
                }
              });
      boolean empty = exchange.getRequestMethod().equals("HEAD") || response.body().length == 0;
      exchange.sendResponseHeaders(response.statusCode(), empty ? -1 : response.body().length);
      if (!empty) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(response.body());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      exchange.sendResponseHeaders(502, -1);
    } finally {
      exchange.close();
    }
  }
}
