package io.kuik.registry;

import io.kuik.model.CredentialTrial;
import io.kuik.model.RegistryCredential;
import io.kuik.model.TrialVerdict;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A registry's token flow for a pull, run with a credential to learn whether the registry takes it,
 * before any pod needs it (the distribution spec's authentication: a {@code 401} with a {@code
 * WWW-Authenticate} challenge at {@code GET /v2/};
 * https://distribution.github.io/distribution/spec/auth/token/):
 *
 * <ol>
 *   <li>{@code GET /v2/} without credentials: {@code 200} asks for none (accepted), a {@code 401}
 *       names the scheme;
 *   <li>Basic: {@code GET /v2/} again with the user name and password;
 *   <li>Bearer: a token from the challenge's realm for {@code repository:<path>:pull} of each path
 *       (GET with Basic, or POST with the identity token as refresh token; a registry token is used
 *       as is), then {@code GET /v2/} with it.
 * </ol>
 *
 * {@code 401} or {@code 403} from the registry or its realm is a refusal, with its answer; no
 * answer, a {@code 5xx}, {@code 429}, or a realm on plain HTTP that is not a registry kuik may
 * speak HTTP to (the credential is not sent there) is unreachable. Blocking, at most {@code
 * timeout} per request; thread-safe; never throws, and no verdict holds a credential.
 */
public final class TokenFlow {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final HttpClient http;
  private final Duration timeout;
  private final Set<String> insecureRegistries;

  public TokenFlow(HttpClient http, Duration timeout, Set<String> insecureRegistries) {
    this.http = http;
    this.timeout = timeout;
    this.insecureRegistries = Set.copyOf(insecureRegistries);
  }

  public TrialVerdict tryPull(CredentialTrial trial) {
    URI v2 = RegistryEndpoints.base(trial.registry(), insecureRegistries).resolve("/v2/");
    RegistryCredential credential = trial.credential();
    try {
      HttpResponse<String> first = get(v2, null);
      if (first.statusCode() == 200) {
        return TrialVerdict.accepted("the registry asks for no credential (GET /v2/ answered 200)");
      }
      if (first.statusCode() != 401) {
        return TrialVerdict.unreachable("GET /v2/ answered " + answer(first, credential));
      }
      Optional<AuthChallenge> challenge =
          AuthChallenge.select(first.headers().allValues("WWW-Authenticate"));
      if (challenge.isEmpty()) {
        return TrialVerdict.unreachable(
            "GET /v2/ answered 401 without a Basic or Bearer challenge");
      }
      return challenge.get().isBasic()
          ? basic(v2, credential)
          : bearer(v2, challenge.get(), trial.paths(), credential);
    } catch (IOException | IllegalArgumentException failure) {
      // IllegalArgumentException: a realm that is not a usable URI.
      return TrialVerdict.unreachable(
          trial.registry() + ": " + redact(describe(failure), credential));
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return TrialVerdict.unreachable(trial.registry() + ": interrupted");
    }
  }

  private TrialVerdict basic(URI v2, RegistryCredential credential)
      throws IOException, InterruptedException {
    if (credential.username() == null || credential.password() == null) {
      return TrialVerdict.refused(
          "the registry asks for Basic authentication and the credential holds no user name and"
              + " password");
    }
    return withAuthorization(v2, basicHeader(credential), credential, "Basic");
  }

  private TrialVerdict bearer(
      URI v2, AuthChallenge challenge, Set<String> paths, RegistryCredential credential)
      throws IOException, InterruptedException {
    if (credential.registryToken() != null) {
      return withAuthorization(
          v2, "Bearer " + credential.registryToken(), credential, "its registry token");
    }
    String realm = challenge.parameter("realm");
    if (realm == null || realm.isEmpty()) {
      return TrialVerdict.unreachable("the registry's Bearer challenge names no realm");
    }
    URI realmUri = URI.create(realm);
    if (!RegistryEndpoints.mayCarryCredential(realmUri, insecureRegistries)) {
      return TrialVerdict.unreachable(
          "the token realm "
              + realm
              + " is plain HTTP on a host that is not an insecure registry: the credential was not"
              + " sent there");
    }
    HttpResponse<String> token = token(realmUri, challenge.parameter("service"), paths, credential);
    if (token.statusCode() == 401 || token.statusCode() == 403) {
      return TrialVerdict.refused(
          "the token realm " + realmUri.getHost() + " answered " + answer(token, credential));
    }
    if (token.statusCode() < 200 || token.statusCode() >= 300) {
      return TrialVerdict.unreachable(
          "the token realm " + realmUri.getHost() + " answered " + answer(token, credential));
    }
    String value = tokenOf(token.body());
    if (value == null) {
      return TrialVerdict.unreachable(
          "the token realm " + realmUri.getHost() + " answered without a token");
    }
    return withAuthorization(v2, "Bearer " + value, credential, "a token of its realm");
  }

  private TrialVerdict withAuthorization(
      URI v2, String authorization, RegistryCredential credential, String with)
      throws IOException, InterruptedException {
    HttpResponse<String> second = get(v2, authorization);
    if (second.statusCode() == 200) {
      return TrialVerdict.accepted("GET /v2/ with " + with + " answered 200");
    }
    if (second.statusCode() == 401 || second.statusCode() == 403) {
      return TrialVerdict.refused(
          "GET /v2/ with " + with + " answered " + answer(second, credential));
    }
    return TrialVerdict.unreachable(
        "GET /v2/ with " + with + " answered " + answer(second, credential));
  }

  private HttpResponse<String> token(
      URI realm, String service, Set<String> paths, RegistryCredential credential)
      throws IOException, InterruptedException {
    StringBuilder parameters = new StringBuilder();
    append(parameters, "service", service);
    for (String path : paths) {
      append(parameters, "scope", "repository:" + path + ":pull");
    }
    HttpRequest.Builder request =
        HttpRequest.newBuilder().timeout(timeout).header("Accept", "application/json");
    if (credential.identityToken() != null) {
      StringBuilder form = new StringBuilder("grant_type=refresh_token&client_id=kuik");
      append(form, "refresh_token", credential.identityToken());
      form.append(parameters);
      request
          .uri(realm)
          .header("Content-Type", "application/x-www-form-urlencoded")
          .POST(HttpRequest.BodyPublishers.ofString(form.toString()));
    } else {
      String separator = realm.getRawQuery() == null ? "?" : "&";
      String query = parameters.length() == 0 ? "" : separator + parameters.substring(1);
      request.uri(URI.create(realm + query)).GET();
      if (credential.username() != null && credential.password() != null) {
        request.header("Authorization", basicHeader(credential));
      }
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private HttpResponse<String> get(URI uri, String authorization)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).GET();
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private static String basicHeader(RegistryCredential credential) {
    String pair = credential.username() + ":" + credential.password();
    return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
  }

  private static String tokenOf(String body) {
    try {
      JsonNode json = JSON.readTree(body);
      for (String field : List.of("token", "access_token")) {
        JsonNode value = json.get(field);
        if (value != null && value.isString() && !value.asString().isEmpty()) {
          return value.asString();
        }
      }
      return null;
    } catch (JacksonException malformed) {
      return null;
    }
  }

  /**
   * The status and what the body says, in the distribution spec's error shape ({@code
   * {"errors":[{"code","message"}]}}), a token service's ({@code details}, {@code error}), or its
   * first line; never a credential.
   */
  static String answer(HttpResponse<String> response, RegistryCredential credential) {
    String body = response.body() == null ? "" : response.body();
    String said = body.strip();
    try {
      JsonNode json = JSON.readTree(body);
      JsonNode errors = json.path("errors");
      if (errors.isArray() && !errors.isEmpty()) {
        JsonNode first = errors.get(0);
        said = first.path("code").asString("") + ": " + first.path("message").asString("");
      } else if (json.hasNonNull("details")) {
        said = json.get("details").asString("");
      } else if (json.hasNonNull("error")) {
        said = json.get("error").asString("");
      }
    } catch (JacksonException notJson) {
      // a plain-text or HTML body: its own words
    }
    return redact(response.statusCode() + (said.isEmpty() ? "" : " " + said), credential);
  }

  /** The text with every part of the credential taken out, should a registry echo one. */
  static String redact(String text, RegistryCredential credential) {
    String out = text;
    for (String secret :
        new String[] {
          credential.password(), credential.identityToken(), credential.registryToken()
        }) {
      if (secret != null && !secret.isEmpty()) {
        out = out.replace(secret, "<redacted>");
      }
    }
    return out;
  }

  private static String describe(Exception failure) {
    String message = failure.getMessage();
    return failure.getClass().getSimpleName()
        + (message == null || message.isEmpty() ? "" : ": " + message);
  }

  private static void append(StringBuilder query, String name, String value) {
    if (value == null) {
      return;
    }
    query
        .append('&')
        .append(name)
        .append('=')
        .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
  }
}
