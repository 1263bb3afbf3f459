package io.kuik.explain;

import io.kuik.model.DockerConfig;
import io.kuik.model.DockerConfig.CredentialMatch;
import io.kuik.model.ImageReference;
import io.kuik.model.RegistryCredential;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The credentials the kubelet offers for one image (kubernetes/kubernetes {@code
 * pkg/credentialprovider/keyring.go}, {@code Lookup}): the keys of all the pod's pull Secrets
 * together, every key that matches the image, best first; the registry is asked with each in turn
 * until one pulls. Which key matches and which is better is the product's own matching, {@link
 * DockerConfig#credentialFor}, called in one place ({@link #best}) so that a change to it changes
 * {@code kuik explain} with it.
 */
final class KubeletKeyring {

  /** One {@code auths} key of one pull Secret, in keyring order (Secrets in the pod's order). */
  record Key(String secret, String key, RegistryCredential credential) {
    Key {
      Objects.requireNonNull(secret, "secret");
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(credential, "credential");
    }
  }

  private KubeletKeyring() {}

  /**
   * The keys offered for {@code image}, first tried first; empty when the kubelet pulls
   * anonymously. Equal keys of several Secrets are each offered, in Secret order. The Docker Hub
   * legacy key is offered only when no key matches the image directly.
   */
  static List<Key> offered(List<Key> keyring, ImageReference image) {
    List<Key> remaining = new ArrayList<>(keyring);
    List<Key> ordered = new ArrayList<>();
    boolean direct = false;
    while (true) {
      Map<String, RegistryCredential> firsts = new LinkedHashMap<>();
      for (Key key : remaining) {
        firsts.putIfAbsent(key.key(), key.credential());
      }
      Optional<CredentialMatch> best = best(firsts, image.repository());
      if (best.isEmpty()) {
        return ordered;
      }
      boolean fallback = !matchesDirectly(best.get().key(), image);
      if (fallback && direct) {
        return ordered;
      }
      direct |= !fallback;
      Key taken =
          remaining.stream().filter(k -> k.key().equals(best.get().key())).findFirst().get();
      remaining.remove(taken);
      ordered.add(taken);
    }
  }

  /** The product's credential matching: the one call to change when its rules change. */
  private static Optional<CredentialMatch> best(
      Map<String, RegistryCredential> keys, String repository) {
    return new DockerConfig(keys).credentialFor(repository);
  }

  /**
   * Whether a key serves a Docker Hub image other than through the legacy index fallback: that
   * fallback key names {@code index.docker.io} itself, which serves the image spelled on that host.
   */
  private static boolean matchesDirectly(String key, ImageReference image) {
    if (!image.registry().equals("docker.io")) {
      return true;
    }
    Map<String, RegistryCredential> alone = Map.of(key, RegistryCredential.basic("", ""));
    return best(alone, "index.docker.io/" + image.path()).isEmpty();
  }
}
