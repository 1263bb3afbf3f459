package io.kuik.sim.world.kubelet;

import io.kuik.model.DockerConfig;
import io.kuik.model.DockerConfig.CredentialMatch;
import io.kuik.model.ImageReference;
import io.kuik.model.InvalidDockerConfigException;
import io.kuik.model.RegistryCredential;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The keyring the kubelet builds from a pod's pull Secrets for one pull (kubernetes/kubernetes
 * {@code pkg/credentialprovider/secrets} and {@code keyring.go}): every {@code auths} key of every
 * Secret, Secrets in the pod's order, keys in document order.
 *
 * <p>A Secret counts when it is of type {@code kubernetes.io/dockerconfigjson} with a non-empty
 * {@code .dockerconfigjson}, or of type {@code kubernetes.io/dockercfg} with a non-empty {@code
 * .dockercfg} (the legacy form, the {@code auths} object alone); any other Secret is ignored. A
 * counted Secret that does not decode makes the whole keyring fail, as the kubelet's {@code
 * MakeDockerKeyring} returns the decoding error and the pull fails with it. A document without
 * {@code auths} holds no credential, as Go's decoder reads it.
 *
 * <p>{@link #lookup} gives the credentials to try, in the kubelet's order.
 */
final class PullKeyring {

  static final String DOCKER_CONFIG_JSON = "kubernetes.io/dockerconfigjson";
  static final String DOCKERCFG = "kubernetes.io/dockercfg";

  /** A Secret the kubelet cannot decode; the message names the Secret and never a value. */
  static final class InvalidPullSecret extends Exception {
    private static final long serialVersionUID = 1L;

    InvalidPullSecret(String message) {
      super(message);
    }
  }

  private final List<CredentialMatch> keys;

  private PullKeyring(List<CredentialMatch> keys) {
    this.keys = List.copyOf(keys);
  }

  static PullKeyring of(List<ObjectNode> secrets) throws InvalidPullSecret {
    List<CredentialMatch> keys = new ArrayList<>();
    for (ObjectNode secret : secrets) {
      String type = Json.text(secret, "type");
      String where = Meta.namespace(secret) + "/" + Meta.name(secret);
      String document = null;
      if (DOCKER_CONFIG_JSON.equals(type)) {
        document = decoded(secret, ".dockerconfigjson", where);
      } else if (DOCKERCFG.equals(type)) {
        String legacy = decoded(secret, ".dockercfg", where);
        document = legacy == null ? null : "{\"auths\":" + legacy + "}";
      }
      if (document != null) {
        parse(document, where).auths().forEach((k, c) -> keys.add(new CredentialMatch(k, c)));
      }
    }
    return new PullKeyring(keys);
  }

  /**
   * The credentials to try for {@code image}, first to last: the matching keys of every Secret
   * together, most specific first as {@link DockerConfig#credentialFor} ranks them, keys of equal
   * rank in keyring order. When no key matches directly, a Docker Hub image gets the keys of the
   * legacy Hub index ({@code https://index.docker.io/v1/}); never when one does. Empty: pull
   * anonymously.
   */
  List<CredentialMatch> lookup(ImageReference image) {
    List<CredentialMatch> remaining = new ArrayList<>(keys);
    List<CredentialMatch> ordered = new ArrayList<>();
    boolean direct = false;
    while (true) {
      // credentialFor ranks distinct keys; the first remaining holder of each key stands for it,
      // so equal keys from several Secrets come out one per round, in keyring order.
      Map<String, RegistryCredential> firsts = new LinkedHashMap<>();
      for (CredentialMatch key : remaining) {
        firsts.putIfAbsent(key.key(), key.credential());
      }
      Optional<CredentialMatch> best = new DockerConfig(firsts).credentialFor(image.repository());
      if (best.isEmpty()) {
        return ordered;
      }
      boolean fallback = isHubFallback(best.get().key(), image);
      if (fallback && direct) {
        return ordered;
      }
      direct |= !fallback;
      CredentialMatch taken =
          remaining.stream().filter(k -> k.key().equals(best.get().key())).findFirst().get();
      remaining.remove(taken);
      ordered.add(taken);
    }
  }

  /**
   * Whether {@code key} serves a Docker Hub image only through the legacy index fallback: such a
   * key names the host {@code index.docker.io} itself, so it covers that host directly, which a key
   * covering {@code docker.io} never does (the host has another number of labels).
   */
  private static boolean isHubFallback(String key, ImageReference image) {
    if (!image.registry().equals("docker.io")) {
      return false;
    }
    DockerConfig alone = new DockerConfig(Map.of(key, RegistryCredential.basic("", "")));
    return alone.credentialFor("index.docker.io/" + image.path()).isPresent();
  }

  private static String decoded(ObjectNode secret, String key, String where)
      throws InvalidPullSecret {
    JsonNode value = secret.path("data").path(key);
    if (!value.isString() || value.stringValue().isEmpty()) {
      return null;
    }
    try {
      return new String(Base64.getDecoder().decode(value.stringValue()), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new InvalidPullSecret("image pull Secret " + where + ": " + key + " is not base64");
    }
  }

  private static DockerConfig parse(String document, String where) throws InvalidPullSecret {
    JsonNode root;
    try {
      root = Json.MAPPER.readTree(document);
    } catch (JacksonException e) {
      throw new InvalidPullSecret("image pull Secret " + where + ": not valid JSON");
    }
    if (root instanceof ObjectNode object
        && (object.get("auths") == null || object.get("auths").isNull())) {
      return DockerConfig.empty();
    }
    try {
      return DockerConfig.parse(document);
    } catch (InvalidDockerConfigException e) {
      throw new InvalidPullSecret("image pull Secret " + where + ": " + e.getMessage());
    }
  }
}
