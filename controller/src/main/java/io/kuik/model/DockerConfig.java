package io.kuik.model;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The content of a {@code .dockerconfigjson}: registry keys and their credentials, in the order the
 * document lists them. Immutable; two configs with the same entries are equal whatever their order.
 *
 * <p>{@link #parse} reads what a user or the syncer wrote; {@link #toJson} writes one canonical
 * form, byte for byte the same for equal configs, because the syncer hashes it to skip applies that
 * would change nothing. {@link #credentialFor} is the kubelet's choice of credential for an image
 * (docs/behaviour.md#what-a-secret-holds).
 */
public record DockerConfig(Map<String, RegistryCredential> auths) {

  private static final JsonMapper JSON =
      JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

  /**
   * @param auths registry key to credential; copied, iteration order kept
   * @throws NullPointerException on a null map, key or credential
   */
  public DockerConfig {
    Map<String, RegistryCredential> copy = new LinkedHashMap<>();
    auths.forEach(
        (key, credential) ->
            copy.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(credential, key)));
    auths = Collections.unmodifiableMap(copy);
  }

  /** No credential at all: {@code {"auths":{}}}, what a Secret holds once every entry left. */
  public static DockerConfig empty() {
    return new DockerConfig(Map.of());
  }

  /**
   * Reads a {@code .dockerconfigjson} (the JSON text, already base64-decoded from the Secret).
   *
   * <p>Every {@code auths} entry must be an object; its {@code auth}, {@code username}, {@code
   * password}, {@code identitytoken} and {@code registrytoken} must be strings when present. A
   * non-empty {@code auth} wins over {@code username}/{@code password} and must be base64 of UTF-8
   * {@code user:password}. Other fields ({@code email}, top-level {@code credsStore}, …) are
   * ignored. An empty {@code auths} object is valid.
   *
   * @throws InvalidDockerConfigException with a reason that names the offending key, never a value
   */
  public static DockerConfig parse(String json) throws InvalidDockerConfigException {
    JsonNode root;
    try {
      root = JSON.readTree(Objects.requireNonNull(json, "json"));
    } catch (tools.jackson.core.exc.StreamConstraintsException tooDeep) {
      // Parsing stops at the limit: a document nested thousands deep costs no more than that.
      throw new InvalidDockerConfigException(
          "nested deeper than "
              + tools.jackson.core.StreamReadConstraints.defaults().getMaxNestingDepth()
              + " levels"
              + where(tooDeep));
    } catch (JacksonException e) {
      // Jackson's own message may quote the token it choked on, which may be a password.
      throw new InvalidDockerConfigException("not valid JSON" + where(e));
    }
    if (root == null || root.isMissingNode()) {
      throw new InvalidDockerConfigException(
          "empty, expected a JSON object with an \"auths\" object");
    }
    if (!root.isObject()) {
      throw new InvalidDockerConfigException("the top level is not a JSON object");
    }
    JsonNode auths = root.get("auths");
    if (auths == null || !auths.isObject()) {
      throw new InvalidDockerConfigException(
          "no \"auths\" object at the top level (a legacy .dockercfg lists registries there instead)");
    }
    Map<String, RegistryCredential> entries = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> entry : auths.properties()) {
      entries.put(entry.getKey(), credentialOf(entry.getKey(), entry.getValue()));
    }
    return new DockerConfig(entries);
  }

  /**
   * The canonical JSON of this config, compact, every object's keys in ascending order: {@code
   * {"auths":{"<key>":{"auth":…,"identitytoken":…,"password":…,"registrytoken":…,"username":…}}}}.
   * {@code auth} is base64 of {@code username:password}, written when both are set and the user
   * name has no colon (it would not decode back); every other field is written when set. So {@code
   * parse(c.toJson())} equals {@code c}.
   */
  public String toJson() {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode out = root.putObject("auths");
    new TreeMap<>(auths).forEach((key, credential) -> writeEntry(out.putObject(key), credential));
    return JSON.writeValueAsString(root);
  }

  /**
   * The key and credential the kubelet would try first to pull {@code image}, by its keyring's
   * rules (kubernetes/kubernetes pkg/credentialprovider/keyring.go, {@code BasicDockerKeyring.Add}
   * and {@code Lookup}; see {@link KeyringKey}): among the keys that match the image, the one filed
   * under the greatest string (so {@code quay.io/acme} before {@code quay.io}, and {@code
   * quay.io/acme} also for {@code quay.io/acme-corp/app}, the path being a string prefix); keys
   * filed under the same string keep document order, where the kubelet's order is random. When no
   * key matches and the image goes to Docker Hub by the kubelet's reading, the first key filed
   * under {@code index.docker.io} ({@code https://index.docker.io/v1/}).
   *
   * @param image a normalized repository {@code host[:port]/path}, without tag or digest, as the
   *     kubelet looks it up; or such a path ending in {@code /}, which stands for every repository
   *     below it: only a key that matches all of them matches it (see {@link Entry#keyringImage})
   * @throws IllegalArgumentException when {@code image} is neither
   */
  public Optional<CredentialMatch> credentialFor(String image) {
    return keyring().credentialFor(image);
  }

  /**
   * This config's keys read once, for many lookups: a document of 50,000 keys costs one reading of
   * each, not one per lookup.
   */
  public Keyring keyring() {
    return new Keyring(auths);
  }

  /** The keys of a config as the kubelet's keyring holds them, read once. */
  public static final class Keyring {

    private record Item(
        String authsKey, RegistryCredential credential, KeyringKey key, KeyringKey.Parts match) {}

    private final List<Item> items = new ArrayList<>();

    /** The keys without a glob, by the one host name each matches; the others apart. */
    private final Map<String, List<Item>> byHost = new java.util.HashMap<>();

    private final List<Item> globs = new ArrayList<>();

    private Keyring(Map<String, RegistryCredential> auths) {
      auths.forEach(
          (authsKey, credential) ->
              KeyringKey.of(authsKey)
                  .ifPresent(
                      key ->
                          key.matcher()
                              .ifPresent(
                                  m -> {
                                    Item item = new Item(authsKey, credential, key, m);
                                    items.add(item);
                                    String host = m.exactHost();
                                    if (host == null) {
                                      globs.add(item);
                                    } else {
                                      byHost
                                          .computeIfAbsent(host, h -> new ArrayList<>())
                                          .add(item);
                                    }
                                  })));
    }

    /** {@link DockerConfig#credentialFor(String)}. */
    public Optional<CredentialMatch> credentialFor(String image) {
      int slash = image.indexOf('/');
      String path = slash < 0 ? "" : image.substring(slash);
      if (slash == 0 || image.isEmpty() || path.contains(":") || image.contains("@")) {
        throw new IllegalArgumentException(
            "expected a normalized repository host[:port]/path without tag or digest, got \""
                + image
                + "\"");
      }
      Optional<KeyringKey.Parts> target = KeyringKey.Parts.of(image);
      Item best = null;
      if (target.isPresent()) {
        // Only the keys that can match the host: those of that host, and the globs.
        for (List<Item> candidates :
            List.of(byHost.getOrDefault(target.get().host(), List.of()), globs)) {
          for (Item item : candidates) {
            // Strictly greater: among keys filed under the same string the first listed stays
            // (two such keys have one host, so they sit in one list, in the order listed).
            if (item.match().serves(target.get())
                && (best == null || item.key().compareTo(best.key()) > 0)) {
              best = item;
            }
          }
        }
      }
      if (best != null) {
        return Optional.of(new CredentialMatch(best.authsKey(), best.credential()));
      }
      if (!KeyringKey.goesToDockerHub(image)) {
        return Optional.empty();
      }
      for (Item item : items) {
        if (item.key().filed().equals(KeyringKey.DOCKER_HUB_LEGACY)) {
          return Optional.of(new CredentialMatch(item.authsKey(), item.credential()));
        }
      }
      return Optional.empty();
    }

    /** {@link DockerConfig#credentialFor(Entry)}. */
    public Optional<CredentialMatch> credentialFor(Entry entry) {
      return credentialFor(entry.keyringImage());
    }
  }

  /**
   * The key and credential the kubelet would use for the images {@code entry} serves: {@link
   * #credentialFor(String)} of {@link Entry#keyringImage()}.
   */
  public Optional<CredentialMatch> credentialFor(Entry entry) {
    return credentialFor(entry.keyringImage());
  }

  /** An {@code auths} key, exactly as the document writes it, and its credential. */
  public record CredentialMatch(String key, RegistryCredential credential) {
    public CredentialMatch {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(credential, "credential");
    }
  }

  private static RegistryCredential credentialOf(String key, JsonNode entry)
      throws InvalidDockerConfigException {
    if (!entry.isObject()) {
      throw new InvalidDockerConfigException(
          "auths entry " + quoted(key) + " is not a JSON object");
    }
    String auth = stringField(key, entry, "auth");
    String username = stringField(key, entry, "username");
    String password = stringField(key, entry, "password");
    String identityToken = stringField(key, entry, "identitytoken");
    String registryToken = stringField(key, entry, "registrytoken");
    // An empty auth is no auth, as for the kubelet: the separate fields then count.
    if (auth != null && !auth.isEmpty()) {
      String decoded = decodeAuth(key, auth);
      int colon = decoded.indexOf(':');
      if (colon < 0) {
        throw new InvalidDockerConfigException(
            "auths entry " + quoted(key) + ": auth does not decode to user:password (no colon)");
      }
      username = decoded.substring(0, colon);
      password = decoded.substring(colon + 1);
    }
    return new RegistryCredential(username, password, identityToken, registryToken);
  }

  private static String decodeAuth(String key, String auth) throws InvalidDockerConfigException {
    byte[] bytes;
    try {
      // As the kubelet's decodeDockerConfigFieldAuth: padded base64 when the field ends with '='
      // (Go's StdEncoding), unpadded otherwise (RawStdEncoding); both skip line breaks.
      String data = auth.replace("\r", "").replace("\n", "");
      boolean padded = auth.strip().endsWith("=");
      if (padded ? data.length() % 4 != 0 : data.contains("=")) {
        throw new IllegalArgumentException("badly padded");
      }
      bytes = Base64.getDecoder().decode(data);
    } catch (IllegalArgumentException e) {
      throw new InvalidDockerConfigException(
          "auths entry " + quoted(key) + ": auth is not standard base64");
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new InvalidDockerConfigException(
          "auths entry " + quoted(key) + ": auth does not decode to UTF-8 text");
    }
  }

  private static String stringField(String key, JsonNode entry, String field)
      throws InvalidDockerConfigException {
    JsonNode value = entry.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isString()) {
      throw new InvalidDockerConfigException(
          "auths entry " + quoted(key) + ": " + field + " is not a string");
    }
    return value.stringValue();
  }

  private static void writeEntry(ObjectNode out, RegistryCredential credential) {
    String username = credential.username();
    String password = credential.password();
    String auth = null;
    if (username != null && password != null && username.indexOf(':') < 0) {
      byte[] pair = (username + ":" + password).getBytes(StandardCharsets.UTF_8);
      auth = Base64.getEncoder().encodeToString(pair);
    }
    // Ascending field names, so the bytes depend on the credential only.
    putIfSet(out, "auth", auth);
    putIfSet(out, "identitytoken", credential.identityToken());
    putIfSet(out, "password", password);
    putIfSet(out, "registrytoken", credential.registryToken());
    putIfSet(out, "username", username);
  }

  private static void putIfSet(ObjectNode out, String field, String value) {
    if (value != null) {
      out.put(field, value);
    }
  }

  private static String where(JacksonException e) {
    if (e.getLocation() == null || e.getLocation().getLineNr() < 0) {
      return "";
    }
    return " (line "
        + e.getLocation().getLineNr()
        + ", column "
        + e.getLocation().getColumnNr()
        + ")";
  }

  /**
   * A key quoted for a message; keys are registry paths, but a long one is cut to stay readable.
   */
  private static String quoted(String key) {
    return "\"" + (key.length() > 120 ? key.substring(0, 120) + "…" : key) + "\"";
  }
}
