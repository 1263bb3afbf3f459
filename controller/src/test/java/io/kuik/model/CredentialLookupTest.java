package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The kubelet's choice of credential (kubernetes/kubernetes pkg/credentialprovider/keyring.go),
 * with whole-segment paths as docs/behaviour.md#routing-resources requires. Each row: the {@code
 * auths} keys in document order, the normalized image repository, the key whose credential is used
 * (or none).
 */
class CredentialLookupTest {

  @ParameterizedTest(name = "keys [{0}], image {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      nullValues = "",
      textBlock =
          """
          # two entries on one host keep their own credentials (the documented case)
          quay.io/acme quay.io/other                | quay.io/acme/foo            | quay.io/acme
          quay.io/acme quay.io/other                | quay.io/other/bar           | quay.io/other
          quay.io/acme quay.io/other                | quay.io/third/x             | none
          # a host key serves every path; a path key beats it, in whichever order they come
          quay.io                                   | quay.io/acme/foo            | quay.io
          quay.io quay.io/acme                      | quay.io/acme/foo            | quay.io/acme
          quay.io/acme quay.io                      | quay.io/acme/foo            | quay.io/acme
          quay.io/acme quay.io/acme/foo             | quay.io/acme/foo/bar        | quay.io/acme/foo
          quay.io/acme/foo                          | quay.io/acme/foo            | quay.io/acme/foo
          quay.io/acme/foo                          | quay.io/acme                | none
          # whole path segments, never a string prefix
          quay.io/acme                              | quay.io/acme-bar/x          | none
          quay.io/acme/foo                          | quay.io/acme/foo-bar        | none
          quay.io/acme quay.io                      | quay.io/acme-bar/x          | quay.io
          quay.io/acme/                             | quay.io/acme/foo            | quay.io/acme/
          # schemes are stripped; /v1/ and /v2/ are the registry API, not a path
          https://quay.io/acme                      | quay.io/acme/foo            | https://quay.io/acme
          http://registry.example.com               | registry.example.com/a      | http://registry.example.com
          https://registry.example.com/v2/          | registry.example.com/a/b    | https://registry.example.com/v2/
          registry.example.com/v1/                  | registry.example.com/a      | registry.example.com/v1/
          https://registry.example.com/v2/team      | registry.example.com/team/a | https://registry.example.com/v2/team
          https://registry.example.com/v2/team      | registry.example.com/other  | none
          # keys that strip to the same string: the first listed wins
          https://quay.io quay.io                   | quay.io/a                   | https://quay.io
          quay.io https://quay.io                   | quay.io/a                   | quay.io
          # host and port match exactly
          localhost:5000                            | localhost:5000/a            | localhost:5000
          localhost:5001                            | localhost:5000/a            | none
          localhost                                 | localhost:5000/a            | none
          localhost:5000                            | localhost/a                 | none
          localhost localhost:5000 localhost:5001   | localhost:5001/a            | localhost:5001
          quay.io:443                               | quay.io/a                   | none
          Quay.io                                   | quay.io/a                   | none
          # globs match one whole label each, never a different number of labels
          *.example.com                             | a.example.com/x             | *.example.com
          *.example.com                             | example.com/x               | none
          *.example.com                             | a.b.example.com/x           | none
          *.example.com a.example.com               | a.example.com/x             | a.example.com
          *.example.com/team                        | a.example.com/team/app      | *.example.com/team
          *.example.com/team                        | a.example.com/other         | none
          reg*.example.com                          | registry.example.com/x      | reg*.example.com
          reg*.example.com                          | mirror.example.com/x        | none
          *.example.com:5000                        | a.example.com/x             | none
          *.example.com:5000                        | a.example.com:5000/x        | *.example.com:5000
          # Docker Hub: the legacy keys serve docker.io images when no key matches directly
          https://index.docker.io/v1/               | docker.io/library/nginx     | https://index.docker.io/v1/
          index.docker.io                           | docker.io/acme/app          | index.docker.io
          index.docker.io/v1/                       | docker.io/acme/app          | index.docker.io/v1/
          docker.io                                 | docker.io/library/nginx     | docker.io
          docker.io/library                         | docker.io/library/nginx     | docker.io/library
          https://index.docker.io/v1/ docker.io/acme | docker.io/acme/app         | docker.io/acme
          https://index.docker.io/v1/ docker.io/acme | docker.io/library/nginx    | https://index.docker.io/v1/
          index.docker.io/library                   | docker.io/library/nginx     | none
          https://index.docker.io/v1/               | quay.io/acme/foo            | none
          https://index.docker.io/v1/               | localhost/foo               | none
          # nothing to match
                                                    | quay.io/a                   | none
          """)
  void picksTheCredentialTheKubeletWouldUse(String keys, String image, String expected) {
    DockerConfig config = configWithKeys(keys);

    Optional<DockerConfig.CredentialMatch> match = config.credentialFor(image);

    if (expected.equals("none")) {
      assertTrue(match.isEmpty(), () -> "expected no credential, got " + match);
    } else {
      assertTrue(match.isPresent(), () -> "expected " + expected + ", got no credential");
      assertEquals(expected, match.get().key());
      // The credential is the one stored under that key, not a neighbour's.
      assertSame(config.auths().get(expected), match.get().credential());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"quay.io/acme/foo:1.0", "quay.io/acme/foo@sha256:abc", "/acme/foo", ""})
  void refusesAnImageThatIsNotANormalizedRepository(String image) {
    DockerConfig config = configWithKeys("quay.io");

    assertThrows(IllegalArgumentException.class, () -> config.credentialFor(image));
  }

  @Test
  void aGlobFullOfStarsAnswersQuickly() {
    // A backtracking matcher would take exponential time on this key.
    String stars = "*a".repeat(40) + "*b";
    DockerConfig config = configWithKeys(stars + ".example.com");

    assertTrue(config.credentialFor("a".repeat(200) + ".example.com/x").isEmpty());
    assertTrue(config.credentialFor("a".repeat(200) + "b.example.com/x").isPresent());
  }

  /** One distinct credential per key, so a test can tell whose credential came back. */
  private static DockerConfig configWithKeys(String keys) {
    Map<String, RegistryCredential> auths = new LinkedHashMap<>();
    if (keys != null) {
      int i = 0;
      for (String key : keys.trim().split("\\s+")) {
        auths.put(key, RegistryCredential.basic("user" + i, "password" + i));
        i++;
      }
    }
    return new DockerConfig(auths);
  }
}
