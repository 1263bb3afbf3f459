package io.kuik.model;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The kubelet's exec protocol for credential provider plugins, {@code
 * credentialprovider.kubelet.k8s.io/v1}
 * (https://kubernetes.io/docs/reference/config-api/kubelet-credentialprovider.v1/): a {@code
 * CredentialProviderRequest} naming the image goes to the plugin's stdin, a {@code
 * CredentialProviderResponse} comes back on its stdout. Read as the kubelet reads it (kubernetes
 * {@code pkg/credentialprovider/plugin/plugin.go}, {@code ExecPlugin}, {@code decodeResponse},
 * {@code provide}): the response's apiVersion must be the one asked, its kind {@code
 * CredentialProviderResponse}, it is decoded strictly (an unknown field is an error), its {@code
 * cacheKeyType} is {@code Image}, {@code Registry} or {@code Global}, its {@code cacheDuration} a
 * Go duration when present, and {@code auth} maps image patterns to a username and password.
 *
 * <p>Pure: bytes in, values out. An error's message never quotes the response: it may hold a
 * credential (the kubelet does not wrap its decoder's error either, for that reason).
 */
public final class ProviderExchange {

  private static final JsonMapper JSON =
      JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

  private static final Set<String> RESPONSE =
      Set.of("apiVersion", "kind", "cacheKeyType", "cacheDuration", "auth");

  /** How far a response's credentials may be reused, the kubelet's cache key. */
  public enum CacheKeyType {
    /** For the very image asked about. */
    Image,
    /** For every image of the image's registry host. */
    Registry,
    /** For every image the plugin serves. */
    Global
  }

  /**
   * A plugin's answer.
   *
   * @param cacheDuration how long the credentials may be used; null when the plugin did not say
   *     (the provider's defaultCacheDuration applies), zero when it asked not to cache them
   * @param auth image pattern (a keyring key: host with globs, port and path) to credential
   */
  public record Response(
      CacheKeyType cacheKeyType, Duration cacheDuration, Map<String, RegistryCredential> auth) {
    public Response {
      Objects.requireNonNull(cacheKeyType, "cacheKeyType");
      auth = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(auth));
    }

    @Override
    public String toString() {
      return "Response[cacheKeyType="
          + cacheKeyType
          + ", cacheDuration="
          + cacheDuration
          + ", auth="
          + auth.keySet()
          + "]";
    }
  }

  /** A response that cannot be used; the message says why, never what it held. */
  public static final class InvalidResponse extends Exception {
    private static final long serialVersionUID = 1L;

    public InvalidResponse(String reason) {
      super(reason, null, false, false);
    }
  }

  private ProviderExchange() {}

  /** The request for {@code image}, as the plugin reads it on stdin. */
  public static byte[] request(String apiVersion, String image) {
    ObjectNode request = JSON.createObjectNode();
    request.put("apiVersion", apiVersion);
    request.put("kind", "CredentialProviderRequest");
    request.put("image", image);
    return JSON.writeValueAsString(request).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Reads a plugin's stdout.
   *
   * @throws InvalidResponse when it is not a {@code CredentialProviderResponse} of {@code
   *     apiVersion} the kubelet would use
   */
  public static Response response(byte[] stdout, String apiVersion) throws InvalidResponse {
    JsonNode root;
    try {
      root = JSON.readTree(stdout);
    } catch (JacksonException e) {
      throw new InvalidResponse("stdout is not a JSON object (" + stdout.length + " bytes)");
    }
    if (root == null || !root.isObject()) {
      throw new InvalidResponse("stdout is not a JSON object (" + stdout.length + " bytes)");
    }
    String version = text(root, "apiVersion");
    if (!apiVersion.equals(version)) {
      throw new InvalidResponse(
          "the response's apiVersion is "
              + (version == null ? "missing" : "another")
              + ", not "
              + apiVersion
              + " as the request's");
    }
    if (!"CredentialProviderResponse".equals(text(root, "kind"))) {
      throw new InvalidResponse("the response's kind is not CredentialProviderResponse");
    }
    for (String field : root.propertyNames()) {
      if (!RESPONSE.contains(field)) {
        throw new InvalidResponse("the response has an unknown field (it is decoded strictly)");
      }
    }
    CacheKeyType type;
    try {
      type = CacheKeyType.valueOf(String.valueOf(text(root, "cacheKeyType")));
    } catch (IllegalArgumentException invalid) {
      throw new InvalidResponse("the response's cacheKeyType is not Image, Registry or Global");
    }
    Duration cacheDuration = null;
    JsonNode duration = root.get("cacheDuration");
    if (duration != null && !duration.isNull()) {
      try {
        cacheDuration = GoDuration.parse(duration.isString() ? duration.asString() : "");
      } catch (IllegalArgumentException invalid) {
        throw new InvalidResponse("the response's cacheDuration is not a duration");
      }
      if (cacheDuration.isNegative()) {
        throw new InvalidResponse("the response's cacheDuration is negative");
      }
    }
    Map<String, RegistryCredential> auth = new LinkedHashMap<>();
    JsonNode map = root.get("auth");
    if (map != null && !map.isNull()) {
      if (!map.isObject()) {
        throw new InvalidResponse("the response's auth is not an object");
      }
      for (Map.Entry<String, JsonNode> entry : map.properties()) {
        auth.put(entry.getKey(), credential(entry.getKey(), entry.getValue()));
      }
    }
    return new Response(type, cacheDuration, auth);
  }

  private static RegistryCredential credential(String key, JsonNode value) throws InvalidResponse {
    if (!value.isObject()) {
      throw new InvalidResponse("auth " + shown(key) + " is not an object");
    }
    for (String field : value.propertyNames()) {
      if (!field.equals("username") && !field.equals("password")) {
        throw new InvalidResponse("auth " + shown(key) + " has an unknown field");
      }
    }
    JsonNode username = value.get("username");
    JsonNode password = value.get("password");
    for (JsonNode part : new JsonNode[] {username, password}) {
      if (part != null && !part.isNull() && !part.isString()) {
        throw new InvalidResponse(
            "auth " + shown(key) + " has a username or password not a string");
      }
    }
    return RegistryCredential.basic(
        username == null || username.isNull() ? "" : username.asString(),
        password == null || password.isNull() ? "" : password.asString());
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value != null && value.isString() ? value.asString() : null;
  }

  /**
   * An auth key, quoted when it reads as an image pattern (a registry host, maybe a path), which is
   * what the protocol puts there; anything else is not shown, for it may be a value.
   */
  private static String shown(String key) {
    boolean pattern =
        key.length() <= 255
            && key.matches("[A-Za-z0-9*?.\\[\\]:/_-]+")
            && KeyringKey.of(key).isPresent();
    return pattern ? "\"" + key + "\"" : "(a key that is no image pattern)";
  }
}
