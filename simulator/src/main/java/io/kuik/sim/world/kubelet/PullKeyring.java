package io.kuik.sim.world.kubelet;

import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The keyring the kubelet builds from a pod's pull Secrets for one pull, written from kubernetes/
 * kubernetes {@code pkg/credentialprovider/secrets/secrets.go} ({@code MakeDockerKeyring}) and
 * {@code pkg/credentialprovider/keyring.go} ({@code BasicDockerKeyring.Add} and {@code Lookup},
 * {@code URLsMatch}, {@code isDefaultRegistryMatch}), without any of the product's code.
 *
 * <p>Building ({@code MakeDockerKeyring}, {@code Add}): a Secret counts when it is of type {@code
 * kubernetes.io/dockerconfigjson} with a non-empty {@code .dockerconfigjson}, or {@code
 * kubernetes.io/dockercfg} with a non-empty {@code .dockercfg}; others are ignored. A counted
 * Secret that does not decode ({@link PullSecretDocument}) fails the whole keyring. Each key is
 * read as a URL ({@code https://} added unless it starts with {@code http://} or {@code https://};
 * a key Go's URL parser refuses is dropped); a path starting with {@code /v1/} or {@code /v2/}
 * loses those three characters; the key is filed under host plus that path, or the host alone for
 * an empty path or {@code /}. Credentials filed under one string stay in the order they came:
 * Secrets in the pod's order, keys of one Secret in document order (Go's map order is random; this
 * is one of its orders).
 *
 * <p>{@link #lookup} gives the credentials to try, in the kubelet's order.
 */
final class PullKeyring {

  static final String DOCKER_CONFIG_JSON = "kubernetes.io/dockerconfigjson";
  static final String DOCKERCFG = "kubernetes.io/dockercfg";

  /** The string the legacy Docker Hub key {@code https://index.docker.io/v1/} is filed under. */
  static final String DEFAULT_REGISTRY_HOST = "index.docker.io";

  /** A Secret the kubelet cannot decode; the message names the Secret and never a value. */
  static final class InvalidPullSecret extends Exception {
    private static final long serialVersionUID = 1L;

    InvalidPullSecret(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * One credential of the keyring: where it comes from, the key as the document writes it, and what
   * the kubelet hands the runtime (an empty user name means no credential at all for the runtime,
   * see {@link Kubelet}).
   */
  record Credential(String secret, String key, String username, String password) {}

  /** Filed strings in the kubelet's order of trial: reverse order of their UTF-8 bytes. */
  private final TreeMap<String, List<Credential>> index;

  private PullKeyring(TreeMap<String, List<Credential>> index) {
    this.index = index;
  }

  static PullKeyring of(List<ObjectNode> secrets) throws InvalidPullSecret {
    TreeMap<String, List<Credential>> index = new TreeMap<>(BY_UTF8_BYTES.reversed());
    for (ObjectNode secret : secrets) {
      String where = Meta.namespace(secret) + "/" + Meta.name(secret);
      for (PullSecretDocument.Credential c : decode(secret, where)) {
        Optional<String> filed = filedUnder(c.key());
        filed.ifPresent(
            at ->
                index
                    .computeIfAbsent(at, k -> new ArrayList<>())
                    .add(new Credential(where, c.key(), c.username(), c.password())));
      }
    }
    return new PullKeyring(index);
  }

  /**
   * The credentials to try for {@code repository} (a normalized image name without tag or digest,
   * as {@code parsers.ParseImageName} gives it, e.g. {@code docker.io/library/nginx}), first to
   * last: those of every filed string that {@linkplain #urlsMatch matches} it, in the index's
   * order. When none matches and the image {@linkplain #isDefaultRegistryMatch goes to Docker Hub},
   * those filed under {@value #DEFAULT_REGISTRY_HOST}. Empty: pull anonymously.
   */
  List<Credential> lookup(String repository) {
    List<Credential> found = new ArrayList<>();
    index.forEach(
        (filed, credentials) -> {
          if (urlsMatch(filed, repository)) {
            found.addAll(credentials);
          }
        });
    if (found.isEmpty() && isDefaultRegistryMatch(repository)) {
      found.addAll(index.getOrDefault(DEFAULT_REGISTRY_HOST, List.of()));
    }
    return found;
  }

  /** {@code BasicDockerKeyring.Add}: the string a key is filed under; empty when Go refuses it. */
  static Optional<String> filedUnder(String key) {
    String url = key.startsWith("https://") || key.startsWith("http://") ? key : "https://" + key;
    return GoUrl.parse(url)
        .map(
            parsed -> {
              String path = parsed.path();
              if (path.startsWith("/v2/") || path.startsWith("/v1/")) {
                path = path.substring(3);
              }
              return path.isEmpty() || path.equals("/") ? parsed.host() : parsed.host() + path;
            });
  }

  /**
   * {@code URLsMatchStr}: both read as URLs with {@code https://} in front (either refused: no
   * match); the same port (none counts as a port, so a key without one never serves an image with
   * one); the same number of dot-separated host labels, each image label matching the key's label
   * as a {@link FilepathMatch} pattern; and the key's path a plain string prefix of the image's
   * ({@code /acme} serves {@code /acme-bar/app}).
   */
  static boolean urlsMatch(String filed, String image) {
    Optional<GoUrl> key = GoUrl.parse("https://" + filed);
    Optional<GoUrl> target = GoUrl.parse("https://" + image);
    if (key.isEmpty() || target.isEmpty()) {
      return false;
    }
    String[] keyHost = splitHostPort(key.get().host());
    String[] imageHost = splitHostPort(target.get().host());
    if (!keyHost[1].equals(imageHost[1])) {
      return false;
    }
    String[] keyLabels = keyHost[0].split("\\.", -1);
    String[] imageLabels = imageHost[0].split("\\.", -1);
    if (keyLabels.length != imageLabels.length
        || !target.get().path().startsWith(key.get().path())) {
      return false;
    }
    for (int i = 0; i < keyLabels.length; i++) {
      if (!FilepathMatch.matches(keyLabels[i], imageLabels[i])) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code SplitURL}: host and port as Go's {@code net.SplitHostPort} splits them, or the whole
   * host and no port when it refuses (no colon, more than one outside brackets, or a {@code [} or
   * {@code ]} it did not expect, as in a glob class: {@code registry[0-9].example.com:5000} keeps
   * its port inside its last label).
   */
  static String[] splitHostPort(String host) {
    int colon = host.lastIndexOf(':');
    if (colon < 0) {
      return new String[] {host, ""};
    }
    String name;
    int checkOpen = 0;
    int checkClose = 0;
    if (host.startsWith("[")) {
      int close = host.indexOf(']');
      if (close < 0 || close + 1 != colon) {
        return new String[] {host, ""};
      }
      name = host.substring(1, close);
      checkOpen = 1;
      checkClose = close + 1;
    } else {
      name = host.substring(0, colon);
      if (name.indexOf(':') >= 0) {
        return new String[] {host, ""};
      }
    }
    if (host.indexOf('[', checkOpen) >= 0 || host.indexOf(']', checkClose) >= 0) {
      return new String[] {host, ""};
    }
    return new String[] {name, host.substring(colon + 1)};
  }

  /**
   * {@code isDefaultRegistryMatch}: whether the image goes to Docker Hub by its name's first
   * component: none at all, {@code docker.io} or {@code index.docker.io}, or one without {@code .}
   * and {@code :} (so {@code localhost/app} counts too).
   */
  static boolean isDefaultRegistryMatch(String image) {
    int slash = image.indexOf('/');
    String first = slash < 0 ? image : image.substring(0, slash);
    if (first.isEmpty()) {
      return false;
    }
    return slash < 0
        || first.equals("docker.io")
        || first.equals("index.docker.io")
        || (first.indexOf('.') < 0 && first.indexOf(':') < 0);
  }

  /** Go compares strings by their bytes. */
  private static final Comparator<String> BY_UTF8_BYTES =
      (a, b) ->
          Arrays.compareUnsigned(
              a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

  private static List<PullSecretDocument.Credential> decode(ObjectNode secret, String where)
      throws InvalidPullSecret {
    String type = Json.text(secret, "type");
    try {
      if (DOCKER_CONFIG_JSON.equals(type)) {
        byte[] document = data(secret, ".dockerconfigjson", where);
        return document == null ? List.of() : PullSecretDocument.dockerConfigJson(document);
      }
      if (DOCKERCFG.equals(type)) {
        byte[] document = data(secret, ".dockercfg", where);
        return document == null ? List.of() : PullSecretDocument.dockercfg(document);
      }
      return List.of();
    } catch (PullSecretDocument.Undecodable e) {
      throw new InvalidPullSecret("image pull Secret " + where + ": " + e.getMessage());
    }
  }

  /** The bytes of a data key, or null when absent or empty (the Secret then does not count). */
  private static byte[] data(ObjectNode secret, String key, String where) throws InvalidPullSecret {
    JsonNode value = secret.path("data").path(key);
    if (!value.isString() || value.stringValue().isEmpty()) {
      return null;
    }
    try {
      return Base64.getDecoder().decode(value.stringValue());
    } catch (IllegalArgumentException e) {
      throw new InvalidPullSecret("image pull Secret " + where + ": " + key + " is not base64");
    }
  }

  /** Every filed string, in the order {@link #lookup} tries them. */
  List<String> index() {
    return List.copyOf(index.keySet());
  }
}
