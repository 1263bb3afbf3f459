package io.kuik.webhook;

import io.kuik.model.ImageReference;
import io.kuik.model.RegistryCredential;
import io.kuik.ports.RegistryProber.Availability;
import io.kuik.registry.AuthChallenge;
import io.kuik.registry.RegistryEndpoints;
import io.kuik.registry.RegistryHttp;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
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
 * credential, or a Bearer token already cached for its scope), saving the round trip. Every request
 * goes through {@link RegistryHttp}, the one policy of requests that carry a credential: no
 * credential to a token realm on plain HTTP for a registry reached over HTTPS, nor to another host
 * along a redirect, and only a challenge of the registry itself is answered (a host a redirect
 * leads to may not name a realm). A redirect the policy does not follow is unreachable.
 * Thread-safe.
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

  private final RegistryHttp http;
  private final Set<String> insecureRegistries;
  private final BearerTokens tokens;

  /** The challenge each registry last sent, to authenticate the first request of the next probe. */
  private final Map<URI, AuthChallenge> challenges = new ConcurrentHashMap<>();

  private final LongAdder requests = new LongAdder();

  ManifestProbe(RegistryHttp http, BearerTokens tokens) {
    this.http = http;
    this.insecureRegistries = http.insecureRegistries();
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
      RegistryHttp.Answer first = head(manifest, registry, early.orElse(null));
      if (first.status() != 401) {
        return outcome(first.status());
      }
      // A refused early token comes back with a fresh challenge too: answer it like any other.
      Optional<AuthChallenge> challenge = first.challenge();
      if (challenge.isEmpty()) {
        return Availability.UNAUTHORIZED;
      }
      Optional<String> authorization = answer(registry, challenge.get(), scope, credential);
      if (authorization.isEmpty()) {
        return Availability.UNAUTHORIZED;
      }
      return outcome(head(manifest, registry, authorization.get()).status());
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
    return Optional.of("Bearer " + fetchToken(registry, key, credential));
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

  private String fetchToken(URI registry, BearerTokens.Key key, RegistryCredential credential)
      throws IOException, InterruptedException, TokenRefused {
    if (key.realm() == null) {
      throw new TokenRefused();
    }
    URI realm = URI.create(key.realm());
    RegistryHttp.Outgoing request;
    if (credential != null && credential.identityToken() != null) {
      StringBuilder form = new StringBuilder("grant_type=refresh_token&client_id=kuik");
      appendParameter(form, "refresh_token", credential.identityToken());
      appendParameter(form, "service", key.service());
      appendParameter(form, "scope", key.scope());
      request =
          RegistryHttp.Outgoing.of("POST", realm, registry)
              .header("Accept", "application/json")
              .post(form.toString(), true);
      if (!http.mayCarryCredential(realm, registry)) {
        request = anonymousToken(realm, registry, key); // the refresh token stays here
      }
    } else {
      request = anonymousToken(realm, registry, key).authorization(basic(credential).orElse(null));
    }
    requests.increment();
    RegistryHttp.Answer response = http.send(request);
    if (response.status() == 401 || response.status() == 403) {
      throw new TokenRefused();
    }
    if (response.status() < 200 || response.status() >= 300) {
      throw new IOException("token service answered " + response.status());
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

  /**
   * A GET of the realm with {@code service} and {@code scope}, without a credential: {@link
   * RegistryHttp} sends the one the caller adds only where it may go.
   */
  private static RegistryHttp.Outgoing anonymousToken(
      URI realm, URI registry, BearerTokens.Key key) {
    StringBuilder query = new StringBuilder();
    appendParameter(query, "service", key.service());
    appendParameter(query, "scope", key.scope());
    String separator = realm.getRawQuery() == null ? "?" : "&";
    String suffix = query.length() == 0 ? "" : separator + query.substring(1);
    return RegistryHttp.Outgoing.of("GET", URI.create(realm + suffix), registry)
        .header("Accept", "application/json");
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

  private RegistryHttp.Answer head(URI manifest, URI registry, String authorization)
      throws IOException, InterruptedException {
    requests.increment();
    return http.send(
        RegistryHttp.Outgoing.of("HEAD", manifest, registry)
            .header("Accept", ACCEPT)
            .authorization(authorization));
  }

  /** The token service refused the credential (or there was no realm to ask). */
  private static final class TokenRefused extends Exception {
    TokenRefused() {
      super(null, null, false, false);
    }
  }
}
