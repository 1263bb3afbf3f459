package io.kuik.webhook;

import io.kuik.model.ImageReference;
import io.kuik.model.RegistryCredential;
import io.kuik.ports.RegistryProber.Availability;
import io.kuik.registry.AuthChallenge;
import io.kuik.registry.RegistryEndpoints;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One OCI distribution probe, blocking: {@code HEAD /v2/<name>/manifests/<reference>} accepting OCI
 * and Docker manifests and indexes, answering a {@code 401} challenge once. Basic: the request
 * again with the credential. Bearer: a token from the challenge's realm (GET with {@code service}
 * and {@code scope}, Basic-authenticated with the credential when there is one; a POST with the
 * {@code identitytoken} as refresh token when the credential holds one; the {@code registrytoken}
 * as is), then the request again with it. Answers: 2xx available, 404 not found, 401/403 after
 * authenticating (or with nothing to authenticate with) unauthorized, anything else (5xx, 429,
 * connection failures, timeouts) unreachable.
 *
 * <p>Once a registry has challenged, the next probe authenticates its first request (Basic with the
 * credential, or a Bearer token already cached for its scope), saving the round trip. A credential
 * is never sent to a token realm over plain HTTP unless that host could be a registry spoken to
 * over HTTP (loopback or listed insecure). Thread-safe.
 */
final class ManifestProbe {

  static final String ACCEPT =
      String.join(
          ", ",
          "application/vnd.oci.image.manifest.v1+json",
          "application/vnd.oci.image.index.v1+json",
          "application/vnd.docker.distribution.manifest.v2+json",
          "application/vnd.docker.distribution.manifest.list.v2+json");

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final HttpClient http;
  private final Duration requestTimeout;
  private final Set<String> insecureRegistries;
  private final BearerTokens tokens;

  /** The challenge each registry last sent, to authenticate the first request of the next probe. */
  private final Map<URI, AuthChallenge> challenges = new ConcurrentHashMap<>();

  private final LongAdder requests = new LongAdder();

  ManifestProbe(HttpClient http, ProberSettings settings, BearerTokens tokens) {
    this.http = http;
    this.requestTimeout = settings.probeTimeout();
    this.insecureRegistries = settings.insecureRegistries();
    this.tokens = tokens;
  }

  /** HTTP requests sent so far, token requests included. */
  long requests() {
    return requests.sum();
  }

  Availability probe(ImageReference image, RegistryCredential credential) {
    URI manifest = RegistryEndpoints.manifest(image, insecureRegistries);
    URI registry = RegistryEndpoints.base(image.registry(), insecureRegistries);
    String scope = "repository:" + image.path() + ":pull";
    try {
      Optional<String> early = earlyAuthorization(registry, scope, credential);
      HttpResponse<Void> first = headResponse(manifest, early.orElse(null));
      if (first.statusCode() != 401) {
        return outcome(first.statusCode());
      }
      // A refused early token comes back with a fresh challenge too: answer it like any other.
      Optional<AuthChallenge> challenge =
          AuthChallenge.select(first.headers().allValues("WWW-Authenticate"));
      if (challenge.isEmpty()) {
        return Availability.UNAUTHORIZED;
      }
      Optional<String> authorization = answer(registry, challenge.get(), scope, credential);
      if (authorization.isEmpty()) {
        return Availability.UNAUTHORIZED;
      }
      return outcome(head(manifest, authorization.get()));
    } catch (TokenRefused refused) {
      return Availability.UNAUTHORIZED;
    } catch (IOException | IllegalArgumentException failure) {
      // IllegalArgumentException: a realm that is not a usable URI; as good as no answer.
      return Availability.UNREACHABLE;
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return Availability.UNREACHABLE;
    }
  }

  private static Availability outcome(int status) {
    if (status >= 200 && status < 300) {
      return Availability.AVAILABLE;
    }
    if (status == 404) {
      return Availability.NOT_FOUND;
    }
    if (status == 401 || status == 403) {
      return Availability.UNAUTHORIZED;
    }
    return Availability.UNREACHABLE;
  }

  private Optional<String> earlyAuthorization(
      URI registry, String scope, RegistryCredential credential) {
    AuthChallenge known = challenges.get(registry);
    if (known == null) {
      return Optional.empty();
    }
    if (known.isBasic()) {
      return basic(credential);
    }
    if (credential != null && credential.registryToken() != null) {
      return Optional.of("Bearer " + credential.registryToken());
    }
    return tokens.cached(tokenKey(known, scope, credential)).map(token -> "Bearer " + token);
  }

  private Optional<String> answer(
      URI registry, AuthChallenge challenge, String defaultScope, RegistryCredential credential)
      throws IOException, InterruptedException, TokenRefused {
    challenges.put(registry, challenge);
    if (challenge.isBasic()) {
      return basic(credential);
    }
    if (credential != null && credential.registryToken() != null) {
      return Optional.of("Bearer " + credential.registryToken());
    }
    String scope =
        challenge.parameter("scope") != null ? challenge.parameter("scope") : defaultScope;
    BearerTokens.Key key = tokenKey(challenge, scope, credential);
    Optional<String> cached = tokens.cached(key);
    if (cached.isPresent()) {
      // The registry refused it a moment ago (that is why we are here): get a fresh one.
      tokens.forget(key);
    }
    return Optional.of("Bearer " + fetchToken(key, credential));
  }

  private static BearerTokens.Key tokenKey(
      AuthChallenge challenge, String scope, RegistryCredential credential) {
    return new BearerTokens.Key(
        challenge.parameter("realm"), challenge.parameter("service"), scope, credential);
  }

  private static Optional<String> basic(RegistryCredential credential) {
    if (credential == null || credential.username() == null || credential.password() == null) {
      return Optional.empty();
    }
    String pair = credential.username() + ":" + credential.password();
    return Optional.of(
        "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
  }

  private String fetchToken(BearerTokens.Key key, RegistryCredential credential)
      throws IOException, InterruptedException, TokenRefused {
    if (key.realm() == null) {
      throw new TokenRefused();
    }
    URI realm = URI.create(key.realm());
    boolean mayCarryCredential = RegistryEndpoints.mayCarryCredential(realm, insecureRegistries);
    HttpRequest.Builder request =
        HttpRequest.newBuilder().timeout(requestTimeout).header("Accept", "application/json");
    if (credential != null && credential.identityToken() != null && mayCarryCredential) {
      StringBuilder form = new StringBuilder("grant_type=refresh_token&client_id=kuik");
      appendParameter(form, "refresh_token", credential.identityToken());
      appendParameter(form, "service", key.service());
      appendParameter(form, "scope", key.scope());
      request
          .uri(realm)
          .header("Content-Type", "application/x-www-form-urlencoded")
          .POST(HttpRequest.BodyPublishers.ofString(form.toString()));
    } else {
      StringBuilder query = new StringBuilder();
      appendParameter(query, "service", key.service());
      appendParameter(query, "scope", key.scope());
      String separator = realm.getRawQuery() == null ? "?" : "&";
      String suffix = query.length() == 0 ? "" : separator + query.substring(1);
      request.uri(URI.create(key.realm() + suffix)).GET();
      Optional<String> basic = mayCarryCredential ? basic(credential) : Optional.empty();
      basic.ifPresent(value -> request.header("Authorization", value));
    }
    requests.increment();
    HttpResponse<String> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    if (response.statusCode() == 401 || response.statusCode() == 403) {
      throw new TokenRefused();
    }
    if (response.statusCode() < 200 || response.statusCode() >= 300) {
      throw new IOException("token service answered " + response.statusCode());
    }
    try {
      JsonNode body = JSON.readTree(response.body());
      String token = text(body, "token");
      if (token == null) {
        token = text(body, "access_token");
      }
      if (token == null) {
        throw new IOException("token service answered without a token");
      }
      JsonNode expiresIn = body.get("expires_in");
      tokens.remember(
          key, token, expiresIn != null && expiresIn.isNumber() ? expiresIn.asLong() : 0);
      return token;
    } catch (JacksonException malformed) {
      // Never pass Jackson's message on: it may quote the body, which can hold a token.
      throw new IOException("token service answered with malformed JSON");
    }
  }

  private static String text(JsonNode body, String field) {
    JsonNode value = body.get(field);
    return value != null && value.isString() && !value.asString().isEmpty()
        ? value.asString()
        : null;
  }

  private static void appendParameter(StringBuilder query, String name, String value) {
    if (value == null) {
      return;
    }
    query
        .append('&')
        .append(name)
        .append('=')
        .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
  }

  private int head(URI manifest, String authorization) throws IOException, InterruptedException {
    return headResponse(manifest, authorization).statusCode();
  }

  private HttpResponse<Void> headResponse(URI manifest, String authorization)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(manifest)
            .timeout(requestTimeout)
            .header("Accept", ACCEPT)
            .method("HEAD", HttpRequest.BodyPublishers.noBody());
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    requests.increment();
    return http.send(request.build(), HttpResponse.BodyHandlers.discarding());
  }

  /** The token service refused the credential (or there was no realm to ask). */
  private static final class TokenRefused extends Exception {
    TokenRefused() {
      super(null, null, false, false);
    }
  }
}
