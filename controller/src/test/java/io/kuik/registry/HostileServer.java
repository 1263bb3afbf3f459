package io.kuik.registry;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.kuik.webhook.TestCertificates;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A registry, realm or bystander on a loopback address ({@code 127.0.0.1}, or {@code 127.0.0.2} as
 * "another host"), over plain HTTP or HTTPS, that answers each path as a test tells it: a redirect,
 * a challenge, an echo of what it was sent, a stall, an endless body. It records every request it
 * gets, with its {@code Authorization} header and body, so that a test can say what reached it.
 */
public final class HostileServer implements AutoCloseable {

  /** One request as it arrived. */
  public record Received(String method, String uri, String authorization, String body) {

    /** Whether it carried anything of a credential: a header, or a token or password in a body. */
    public boolean carriedCredential(String... secrets) {
      if (authorization != null) {
        return true;
      }
      for (String secret : secrets) {
        if (body.contains(secret) || uri.contains(secret)) {
          return true;
        }
      }
      return false;
    }
  }

  /** What a path answers. */
  @FunctionalInterface
  public interface Answer {
    void answer(HttpExchange exchange, String body) throws IOException;
  }

  private final HttpServer server;
  private final String scheme;
  private final Map<String, Answer> answers = new ConcurrentHashMap<>();
  private final CountDownLatch stalled = new CountDownLatch(1);
  public final List<Received> received = new CopyOnWriteArrayList<>();

  private HostileServer(HttpServer server, String scheme) {
    this.server = server;
    this.scheme = scheme;
    server.createContext("/", this::handle);
    server.setExecutor(Executors.newCachedThreadPool());
    server.start();
  }

  /** Plain HTTP on {@code address} (e.g. {@code 127.0.0.2}). */
  public static HostileServer http(String address) throws IOException {
    return new HostileServer(
        HttpServer.create(new InetSocketAddress(InetAddress.getByName(address), 0), 0), "http");
  }

  /** HTTPS on {@code address} with the certificate and key of {@code pair}. */
  public static HostileServer https(String address, TestCertificates.Pair pair)
      throws IOException, GeneralSecurityException {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    keys.setKeyEntry(
        "server",
        pair.key(),
        new char[0],
        new java.security.cert.Certificate[] {pair.certificate()});
    KeyManagerFactory factory =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    factory.init(keys, new char[0]);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(factory.getKeyManagers(), null, null);
    HttpsServer server =
        HttpsServer.create(new InetSocketAddress(InetAddress.getByName(address), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    return new HostileServer(server, "https");
  }

  /** {@code host:port}, as an image reference names a registry. */
  public String host() {
    return server.getAddress().getHostString() + ":" + server.getAddress().getPort();
  }

  /** {@code scheme://host:port} and the path. */
  public String url(String path) {
    return scheme + "://" + host() + path;
  }

  /** From now on, {@code path} (and anything below it) answers so. */
  public HostileServer on(String path, Answer answer) {
    answers.put(path, answer);
    return this;
  }

  /** The requests that reached {@code path} (or below it). */
  public List<Received> at(String path) {
    return received.stream().filter(r -> r.uri().startsWith(path)).toList();
  }

  // ---- answers --------------------------------------------------------------------------------

  public static Answer redirect(int code, String location) {
    return (exchange, body) -> {
      exchange.getResponseHeaders().set("Location", location);
      exchange.sendResponseHeaders(code, -1);
    };
  }

  public static Answer status(int code, String text) {
    return (exchange, body) -> send(exchange, code, text);
  }

  /** A 401 challenge, e.g. {@code Bearer realm="…",service="…"} or {@code Basic realm="r"}. */
  public static Answer challenge(String header) {
    return (exchange, body) -> {
      exchange.getResponseHeaders().set("WWW-Authenticate", header);
      send(exchange, 401, "{\"errors\":[{\"code\":\"UNAUTHORIZED\",\"message\":\"log in\"}]}");
    };
  }

  /** A refusal that echoes what it was sent: the Authorization header, the query and the body. */
  public static Answer echo(int code) {
    return (exchange, body) -> {
      String authorization = exchange.getRequestHeaders().getFirst("Authorization");
      send(
          exchange,
          code,
          "bad credentials in header "
              + authorization
              + " query "
              + exchange.getRequestURI().getRawQuery()
              + " body "
              + body);
    };
  }

  /**
   * A 401 with {@code challenge} to a request without an {@code Authorization} header, and {@code
   * then} to one with it: a registry that asks, then does something with what it was sent.
   */
  public static Answer challengeThen(String challenge, Answer then) {
    return (exchange, body) -> {
      if (exchange.getRequestHeaders().getFirst("Authorization") == null) {
        challenge(challenge).answer(exchange, body);
      } else {
        then.answer(exchange, body);
      }
    };
  }

  /** A token, as a realm gives one. */
  public static Answer token(String token) {
    return (exchange, body) -> send(exchange, 200, "{\"token\":\"" + token + "\"}");
  }

  /** A body of {@code bytes} bytes, sent as fast as the client reads. */
  public static Answer endless(int code, long bytes) {
    return (exchange, body) -> {
      exchange.sendResponseHeaders(code, 0);
      byte[] chunk = new byte[8192];
      java.util.Arrays.fill(chunk, (byte) 'x');
      try (OutputStream out = exchange.getResponseBody()) {
        for (long sent = 0; sent < bytes; sent += chunk.length) {
          out.write(chunk);
        }
      } catch (IOException closedByTheClient) {
        // what a client that stops reading does
      }
    };
  }

  /** No answer until the server closes: the client must give up by itself. */
  public Answer stall() {
    return (exchange, body) -> {
      try {
        stalled.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
    };
  }

  /** The headers at once, then one byte of body a second. */
  public Answer trickle() {
    return (exchange, body) -> {
      exchange.sendResponseHeaders(200, 0);
      try (OutputStream out = exchange.getResponseBody()) {
        for (int i = 0; i < 60 && stalled.getCount() > 0; i++) {
          out.write('{');
          out.flush();
          stalled.await(1, TimeUnit.SECONDS);
        }
      } catch (IOException | InterruptedException closed) {
        // the client gave up
      }
    };
  }

  @Override
  public void close() {
    stalled.countDown();
    server.stop(0);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String uri = exchange.getRequestURI().toString();
      received.add(
          new Received(
              exchange.getRequestMethod(),
              uri,
              exchange.getRequestHeaders().getFirst("Authorization"),
              body));
      Answer answer =
          answers.entrySet().stream()
              .filter(e -> exchange.getRequestURI().getPath().startsWith(e.getKey()))
              .max(java.util.Comparator.comparingInt(e -> e.getKey().length()))
              .map(Map.Entry::getValue)
              .orElse(status(404, "{\"errors\":[{\"code\":\"NOT_FOUND\"}]}"));
      answer.answer(exchange, body);
    }
  }

  private static void send(HttpExchange exchange, int code, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    if (exchange.getRequestMethod().equals("HEAD")) {
      exchange.sendResponseHeaders(code, -1);
      return;
    }
    exchange.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
