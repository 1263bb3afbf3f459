package io.kuik.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A registry and its token service in one loopback server, as the distribution token spec has them:
 * a manifest HEAD without a valid token gets a Bearer challenge naming {@code /token}; the token
 * service hands out a token for {@code alice:s3cret} (Basic, or an identity token by POST), an
 * anonymous token that grants nothing, and refuses anything else.
 *
 * <p>Repositories: {@code acme/app} has tag {@code 1}; {@code acme/broken} answers 503; {@code
 * acme/multiple} 300 without a {@code Location}; {@code acme/forbidden} 403 even with a token;
 * {@code acme/slow} answers once {@link #release()} runs.
 *
 * <p>Knobs for the other challenges a registry may send: {@link #basicAuth} (the manifests behind
 * Basic, no token service), {@link #challengeScope} and {@link #challengeless}.
 */
final class FakeTokenRegistry implements AutoCloseable {

  static final String USER = "alice";
  static final String PASSWORD = "s3cret";
  static final String IDENTITY_TOKEN = "refresh-me";

  private final HttpServer server;
  private final Set<String> grantingTokens = ConcurrentHashMap.newKeySet();
  private final AtomicInteger issued = new AtomicInteger();
  private final CountDownLatch slow = new CountDownLatch(1);

  final AtomicInteger manifestRequests = new AtomicInteger();
  final AtomicInteger tokenRequests = new AtomicInteger();
  final List<String> tokenQueries = new CopyOnWriteArrayList<>();
  final List<String> acceptHeaders = new CopyOnWriteArrayList<>();
  final List<Map<String, String>> tokenForms = new CopyOnWriteArrayList<>();
  final List<String> manifestAuthorizations = new CopyOnWriteArrayList<>();
  volatile String tokenField = "token";

  /** The {@code expires_in} value as written in the token's JSON. */
  volatile String expiresIn = "300";

  volatile int tokenStatus = 200;

  /** The manifests want {@code alice:s3cret} as Basic, and challenge with {@code Basic realm}. */
  volatile boolean basicAuth;

  /** The Bearer challenge's {@code scope}: null for the repository's pull scope, "" for none. */
  volatile String challengeScope;

  /** A 401 without any {@code WWW-Authenticate}. */
  volatile boolean challengeless;

  FakeTokenRegistry() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/v2/", this::manifest);
    server.createContext("/token", this::token);
    server.start();
  }

  String host() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  /** A token this registry accepts, handed out of band (as a config's {@code registrytoken} is). */
  String grantedToken() {
    String token = "out-of-band-" + issued.incrementAndGet();
    grantingTokens.add(token);
    return token;
  }

  /** Every token handed out so far stops granting (a rotation, a revocation). */
  void revokeTokens() {
    grantingTokens.clear();
  }

  void release() {
    slow.countDown();
  }

  @Override
  public void close() {
    release();
    server.stop(0);
  }

  private void manifest(HttpExchange exchange) throws IOException {
    manifestRequests.incrementAndGet();
    manifestAuthorizations.add(
        String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
    acceptHeaders.add(String.valueOf(exchange.getRequestHeaders().getFirst("Accept")));
    String path = exchange.getRequestURI().getPath();
    if (path.startsWith("/v2/acme/broken/")) {
      respond(exchange, 503, null);
      return;
    }
    if (path.startsWith("/v2/acme/multiple/")) {
      respond(exchange, 300, null);
      return;
    }
    if (path.startsWith("/v2/acme/slow/")) {
      try {
        slow.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      respond(exchange, 200, null);
      return;
    }
    String authorization = exchange.getRequestHeaders().getFirst("Authorization");
    boolean granted =
        authorization != null
            && (basicAuth
                ? authorization.equals(basicOfAlice())
                : authorization.startsWith("Bearer ")
                    && grantingTokens.contains(authorization.substring("Bearer ".length())));
    if (!granted) {
      String repository = path.substring("/v2/".length(), path.indexOf("/manifests/"));
      if (!challengeless) {
        exchange.getResponseHeaders().add("WWW-Authenticate", challenge(repository));
      }
      respond(exchange, 401, null);
      return;
    }
    if (path.startsWith("/v2/acme/forbidden/")) {
      respond(exchange, 403, null);
    } else if (path.equals("/v2/acme/app/manifests/1")) {
      exchange
          .getResponseHeaders()
          .add("Content-Type", "application/vnd.oci.image.manifest.v1+json");
      respond(exchange, 200, null);
    } else {
      respond(exchange, 404, null);
    }
  }

  private String challenge(String repository) {
    if (basicAuth) {
      return "Basic realm=\"fake-registry\"";
    }
    String scope = challengeScope == null ? "repository:" + repository + ":pull" : challengeScope;
    return "Bearer realm=\"http://"
        + host()
        + "/token\",service=\"fake-registry\""
        + (scope.isEmpty() ? "" : ",scope=\"" + scope + "\"");
  }

  static String basicOfAlice() {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
  }

  private void token(HttpExchange exchange) throws IOException {
    tokenRequests.incrementAndGet();
    Map<String, String> parameters = new HashMap<>();
    if (exchange.getRequestMethod().equals("POST")) {
      String form = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      parameters.putAll(decode(form));
      tokenForms.add(Map.copyOf(decode(form)));
    } else {
      String query = exchange.getRequestURI().getRawQuery();
      tokenQueries.add(query == null ? "" : URLDecoder.decode(query, StandardCharsets.UTF_8));
      parameters.putAll(decode(query));
    }
    String authorization = exchange.getRequestHeaders().getFirst("Authorization");
    boolean grant;
    if ("refresh_token".equals(parameters.get("grant_type"))) {
      grant = IDENTITY_TOKEN.equals(parameters.get("refresh_token"));
      if (!grant) {
        respond(exchange, 401, "{}");
        return;
      }
    } else if (authorization == null) {
      grant = false;
    } else if (authorization.equals(basicOfAlice())) {
      grant = true;
    } else {
      respond(exchange, 401, "{\"details\":\"incorrect username or password\"}");
      return;
    }
    String token = (grant ? "granting-" : "anonymous-") + issued.incrementAndGet();
    if (grant) {
      grantingTokens.add(token);
    }
    respond(
        exchange,
        tokenStatus,
        "{\"" + tokenField + "\":\"" + token + "\",\"expires_in\":" + expiresIn + "}");
  }

  private static Map<String, String> decode(String form) {
    Map<String, String> values = new HashMap<>();
    if (form == null || form.isEmpty()) {
      return values;
    }
    for (String pair : form.split("&")) {
      int equals = pair.indexOf('=');
      if (equals > 0) {
        values.put(
            URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
      }
    }
    return values;
  }

  private static void respond(HttpExchange exchange, int status, String json) throws IOException {
    if (json == null || exchange.getRequestMethod().equals("HEAD")) {
      exchange.sendResponseHeaders(status, -1);
      exchange.close();
      return;
    }
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
