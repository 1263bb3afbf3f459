package io.kuik.registry;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kuik.webhook.TestCertificates;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A token realm as the distribution token spec has one, for a real {@code docker-registry} to trust
 * (https://distribution.github.io/distribution/spec/auth/jwt/): a GET with {@code service} and
 * {@code scope} parameters and Basic {@code alice:s3cret} gets a JWT, signed RS256 with a key whose
 * self-signed certificate it names in the header's {@code x5c} and writes to {@link
 * #rootCertBundle()} for the registry; any other credential gets 401, as Docker Hub's realm words
 * it. Records the query of every request.
 */
public final class TestTokenRealm implements AutoCloseable {

  public static final String USER = "alice";
  public static final String PASSWORD = "s3cret";
  public static final String SERVICE = "kuik-test-registry";
  public static final String ISSUER = "kuik-test-realm";

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final HttpServer server;
  private final TestCertificates.Pair signer;
  private final Path rootCertBundle;
  public final List<String> queries = new CopyOnWriteArrayList<>();

  public TestTokenRealm(Path directory)
      throws IOException, GeneralSecurityException, InterruptedException {
    signer = TestCertificates.generate(directory, "realm", "RSA");
    rootCertBundle = directory.resolve("realm.crt");
    Files.writeString(
        rootCertBundle,
        "-----BEGIN CERTIFICATE-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(signer.certificate().getEncoded())
            + "\n-----END CERTIFICATE-----\n");
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/token", this::token);
    server.start();
  }

  /** The realm's URL, on loopback plain HTTP (where kuik may send a credential). */
  public String realm() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/token";
  }

  public Path rootCertBundle() {
    return rootCertBundle;
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void token(HttpExchange exchange) throws IOException {
    String query = exchange.getRequestURI().getRawQuery();
    queries.add(query == null ? "" : URLDecoder.decode(query, StandardCharsets.UTF_8));
    String expected =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
    if (!expected.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
      respond(exchange, 401, "{\"details\":\"incorrect username or password\"}");
      return;
    }
    List<String> scopes = new ArrayList<>();
    for (String pair : query == null ? new String[0] : query.split("&")) {
      if (pair.startsWith("scope=")) {
        scopes.add(URLDecoder.decode(pair.substring(6), StandardCharsets.UTF_8));
      }
    }
    try {
      respond(exchange, 200, "{\"token\":\"" + jwt(scopes) + "\",\"expires_in\":300}");
    } catch (GeneralSecurityException e) {
      respond(exchange, 500, "{\"details\":\"cannot sign\"}");
    }
  }

  private String jwt(List<String> scopes) throws GeneralSecurityException {
    ObjectNode header = JSON.createObjectNode();
    header.put("typ", "JWT");
    header.put("alg", "RS256");
    header
        .putArray("x5c")
        .add(Base64.getEncoder().encodeToString(signer.certificate().getEncoded()));
    long now = Instant.now().getEpochSecond();
    ObjectNode claims = JSON.createObjectNode();
    claims.put("iss", ISSUER);
    claims.put("sub", USER);
    claims.put("aud", SERVICE);
    claims.put("exp", now + 300);
    claims.put("nbf", now - 10);
    claims.put("iat", now);
    claims.put("jti", UUID.randomUUID().toString());
    ArrayNode access = claims.putArray("access");
    for (String scope : scopes) {
      String[] parts = scope.split(":");
      ObjectNode grant = access.addObject();
      grant.put("type", parts[0]);
      grant.put("name", parts[1]);
      grant.putArray("actions").add(parts[2]);
    }
    Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
    String signed =
        url.encodeToString(JSON.writeValueAsBytes(header))
            + "."
            + url.encodeToString(JSON.writeValueAsBytes(claims));
    Signature rsa = Signature.getInstance("SHA256withRSA");
    rsa.initSign(signer.key());
    rsa.update(signed.getBytes(StandardCharsets.US_ASCII));
    return signed + "." + url.encodeToString(rsa.sign());
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }
}
