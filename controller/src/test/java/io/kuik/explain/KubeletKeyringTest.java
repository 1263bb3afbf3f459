package io.kuik.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.model.RegistryCredential;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The keys the kubelet offers for an image, first tried first (kubernetes/kubernetes
 * pkg/credentialprovider/keyring.go, {@code Lookup}): every matching key of every pull Secret, the
 * longer (reverse lexicographic) key first, the Docker Hub legacy key only when nothing matches
 * directly. Each case holds under the kubelet's string-prefix rule and under whole path segments.
 */
class KubeletKeyringTest {

  private static final RegistryCredential ANY = RegistryCredential.basic("u", "p");

  private static KubeletKeyring.Key key(String secret, String key) {
    return new KubeletKeyring.Key(secret, key, ANY);
  }

  private static List<String> offered(String image, KubeletKeyring.Key... keyring)
      throws InvalidImageReferenceException {
    return KubeletKeyring.offered(List.of(keyring), ImageReference.parse(image)).stream()
        .map(k -> k.secret() + " " + k.key())
        .toList();
  }

  @Test
  void ifTwoKeysMatchExpectTheLongerFirstWhateverTheSecretOrder() throws Exception {
    assertEquals(
        List.of("b quay.io/acme", "a quay.io"),
        offered("quay.io/acme/app:1", key("a", "quay.io"), key("b", "quay.io/acme")));
  }

  @Test
  void ifAKeyIsOnAnotherHostOrPathExpectItNotOffered() throws Exception {
    assertEquals(
        List.of(), offered("quay.io/acme/app:1", key("a", "ghcr.io"), key("a", "quay.io/other")));
  }

  @Test
  void ifTwoSecretsHoldTheSameKeyExpectBothInThePodsOrder() throws Exception {
    assertEquals(
        List.of("first quay.io/acme", "second quay.io/acme"),
        offered("quay.io/acme/app:1", key("first", "quay.io/acme"), key("second", "quay.io/acme")));
  }

  @Test
  void ifAKeyIsTheParentOfTheRepositoryExpectItOfferedBelowIt() throws Exception {
    assertEquals(
        List.of("kuik quay.io/acme/app"),
        offered("quay.io/acme/app/debug:1", key("kuik", "quay.io/acme/app")));
  }

  @Test
  void ifADockerHubImageHasADirectKeyExpectTheLegacyIndexKeyLeftOut() throws Exception {
    assertEquals(
        List.of("a docker.io/acme"),
        offered("acme/app:1", key("a", "https://index.docker.io/v1/"), key("a", "docker.io/acme")));
    assertEquals(
        List.of("a https://index.docker.io/v1/"),
        offered("acme/app:1", key("a", "https://index.docker.io/v1/")));
  }
}
