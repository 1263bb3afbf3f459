package io.kuik.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RegistryEndpointsTest {

  @ParameterizedTest(name = "if the image is {0}, expect {1}")
  @CsvSource({
    "nginx:1.27, https://registry-1.docker.io/v2/library/nginx/manifests/1.27",
    "index.docker.io/acme/app:1, https://registry-1.docker.io/v2/acme/app/manifests/1",
    "quay.io/acme/foo:1, https://quay.io/v2/acme/foo/manifests/1",
    "localhost:5000/foo:1, http://localhost:5000/v2/foo/manifests/1",
    "localhost/foo:1, http://localhost/v2/foo/manifests/1",
    "127.0.0.1:5000/a/b:1, http://127.0.0.1:5000/v2/a/b/manifests/1",
    "[::1]:5000/foo:1, http://[::1]:5000/v2/foo/manifests/1",
    "localhost.example.com/foo:1, https://localhost.example.com/v2/foo/manifests/1",
    "registry.internal:5000/foo:1, http://registry.internal:5000/v2/foo/manifests/1",
    "quay.io/foo:1@sha256:"
        + "ab"
        + "ababababababababababababababababababababababababababababababab"
        + ", https://quay.io/v2/foo/manifests/sha256:ab"
        + "ababababababababababababababababababababababababababababababab",
  })
  void asksTheRegistrysApiByTagOrDigest(String image, String uri)
      throws InvalidImageReferenceException {
    assertEquals(
        uri,
        RegistryEndpoints.manifest(ImageReference.parse(image), Set.of("registry.internal:5000"))
            .toString());
  }
}
