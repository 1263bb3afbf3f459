package io.kuik.registry;

import io.kuik.model.CredentialTrial;
import io.kuik.model.Redactor;
import io.kuik.model.RegistryCredential;
import io.kuik.model.TrialVerdict;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
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
 * answer, a {@code 5xx}, {@code 429}, a redirect {@link RegistryHttp} does not follow, an answer
 * from a host the credential was not sent to (a redirect to another host), or a realm the
 * credential may not go to (plain HTTP for a registry reached over HTTPS) is unreachable: such an
 * answer says nothing of the credential. Every request goes through {@link RegistryHttp}, the one
 * policy of requests that carry a credential. Blocking, at most the policy's timeout per request;
 * thread-safe; never throws, and no verdict holds any form of the credential or of a token the
 * realm gave ({@link Redactor}).
 */
public final class TokenFlow {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final RegistryHttp http;

  public TokenFlow(RegistryHttp http) {
    this.http = http;
  }

  public TrialVerdict tryPull(CredentialTrial trial) {
    URI registry = RegistryEndpoints.base(trial.registry(), http.insecureRegistries());
    URI v2 = registry.resolve("/v2/");
    Redactor redactor = Redactor.of(List.of(trial.credential()));
    try {
      return redactor.redact(flow(registry, v2, trial, redactor));
    } catch (IOException | IllegalArgumentException failure) {
      // IllegalArgumentException: a realm that is not a usable URI.
      return TrialVerdict.unreachable(trial.registry() + ": " + redactor.redact(describe(failure)));
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return TrialVerdict.unreachable(trial.registry() + ": interrupted");
    }
  }

  private TrialVerdict flow(URI registry, URI v2, CredentialTrial trial, Redactor redactor)
      throws IOException, InterruptedException {
    RegistryCredential credential = trial.credential();
    RegistryHttp.Answer first = http.send(RegistryHttp.Outgoing.of("GET", v2, registry));
    if (!first.fromOrigin()) {
      return TrialVerdict.unreachable(
          "GET /v2/ was redirected to "
              + first.uri().getHost()
              + ": an answer that is not the registry's says nothing of the credential");
    }
    if (first.status() == 200) {
      return TrialVerdict.accepted("the registry asks for no credential (GET /v2/ answered 200)");
    }
    if (first.status() != 401) {
      return TrialVerdict.unreachable("GET /v2/ answered " + answer(first, redactor));
    }
    Optional<AuthChallenge> challenge = first.challenge();
    if (challenge.isEmpty()) {
      return TrialVerdict.unreachable("GET /v2/ answered 401 without a Basic or Bearer challenge");
    }
    return challenge.get().isBasic()
        ? basic(registry, v2, credential, redactor)
        : bearer(registry, v2, challenge.get(), trial.paths(), credential, redactor);
  }

  private TrialVerdict basic(URI registry, URI v2, RegistryCredential credential, Redactor redactor)
      throws IOException, InterruptedException {
    if (credential.username() == null || credential.password() == null) {
      return TrialVerdict.refused(
          "the registry asks for Basic authentication and the credential holds no user name and"
              + " password");
    }
    return withAuthorization(registry, v2, basicHeader(credential), "Basic", redactor);
  }

  private TrialVerdict bearer(
      URI registry,
      URI v2,
      AuthChallenge challenge,
      Set<String> paths,
      RegistryCredential credential,
      Redactor redactor)
      throws IOException, InterruptedException {
    if (credential.registryToken() != null) {
      return withAuthorization(
          registry, v2, "Bearer " + credential.registryToken(), "its registry token", redactor);
    }
    String realm = challenge.parameter("realm");
    if (realm == null || realm.isEmpty()) {
      return TrialVerdict.unreachable("the registry's Bearer challenge names no realm");
    }
    URI realmUri = URI.create(realm);
    if (!http.mayCarryCredential(realmUri, registry)) {
      return TrialVerdict.unreachable(
          "the token realm "
              + realm
              + " is plain HTTP for a registry reached over "
              + registry.getScheme()
              + ", or on a host that is not an insecure registry: the credential was not sent"
              + " there");
    }
    RegistryHttp.Answer token =
        http.send(token(realmUri, registry, challenge.parameter("service"), paths, credential));
    String realmHost = realmUri.getHost();
    if (!token.credentialSent()) {
      return TrialVerdict.unreachable(
          "the token realm " + realmHost + " was " + token.withheld() + withheldAnswer(token));
    }
    if (token.redirect()) {
      return TrialVerdict.unreachable(
          "the token realm " + realmHost + " answered " + answer(token, redactor));
    }
    if (token.status() == 401 || token.status() == 403) {
      return TrialVerdict.refused(
          "the token realm " + realmHost + " answered " + answer(token, redactor));
    }
    if (token.status() < 200 || token.status() >= 300) {
      return TrialVerdict.unreachable(
          "the token realm " + realmHost + " answered " + answer(token, redactor));
    }
    String value = tokenOf(token.body());
    if (value == null) {
      return TrialVerdict.unreachable("the token realm " + realmHost + " answered without a token");
    }
    // The registry may echo the token the realm gave: it goes from every word of the answer too.
    Redactor withToken = redactor.withSecret(value);
    return withToken.redact(
        withAuthorization(registry, v2, "Bearer " + value, "a token of its realm", withToken));
  }

  private TrialVerdict withAuthorization(
      URI registry, URI v2, String authorization, String with, Redactor redactor)
      throws IOException, InterruptedException {
    RegistryHttp.Answer second =
        http.send(RegistryHttp.Outgoing.of("GET", v2, registry).authorization(authorization));
    if (!second.credentialSent()) {
      // Whoever answered never saw the credential: its answer says nothing of it.
      return TrialVerdict.unreachable(
          "GET /v2/ with " + with + " was " + second.withheld() + withheldAnswer(second));
    }
    if (second.status() == 200) {
      return TrialVerdict.accepted("GET /v2/ with " + with + " answered 200");
    }
    if (second.status() == 401 || second.status() == 403) {
      return TrialVerdict.refused(
          "GET /v2/ with " + with + " answered " + answer(second, redactor));
    }
    return TrialVerdict.unreachable(
        "GET /v2/ with " + with + " answered " + answer(second, redactor));
  }

  private static String withheldAnswer(RegistryHttp.Answer answer) {
    return " (" + answer.uri().getHost() + " answered " + answer.status() + ")";
  }

  private static RegistryHttp.Outgoing token(
      URI realm, URI registry, String service, Set<String> paths, RegistryCredential credential) {
    StringBuilder parameters = new StringBuilder();
    append(parameters, "service", service);
    for (String path : paths) {
      append(parameters, "scope", "repository:" + path + ":pull");
    }
    if (credential.identityToken() != null) {
      StringBuilder form = new StringBuilder("grant_type=refresh_token&client_id=kuik");
      append(form, "refresh_token", credential.identityToken());
      form.append(parameters);
      return RegistryHttp.Outgoing.of("POST", realm, registry)
          .header("Accept", "application/json")
          .post(form.toString(), true);
    }
    String separator = realm.getRawQuery() == null ? "?" : "&";
    String query = parameters.length() == 0 ? "" : separator + parameters.substring(1);
    RegistryHttp.Outgoing get =
        RegistryHttp.Outgoing.of("GET", URI.create(realm + query), registry)
            .header("Accept", "application/json");
    return credential.username() != null && credential.password() != null
        ? get.authorization(basicHeader(credential))
        : get;
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
   * first line; a redirect not followed says where it led and why; never a form of the credential.
   */
  static String answer(RegistryHttp.Answer response, Redactor redactor) {
    if (response.redirect()) {
      return redactor.redact(
          response.status()
              + " to "
              + response.headers().firstValue("Location").orElse("?")
              + ", "
              + response.withheld());
    }
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
    return redactor.redact(response.status() + (said.isEmpty() ? "" : " " + said));
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
