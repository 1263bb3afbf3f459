package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The syncer's choice of credential follows the kubelet's keyring (kubernetes/kubernetes
 * pkg/credentialprovider/keyring.go; keys and images read as URLs by Go's net/url, host labels
 * matched by Go's path/filepath.Match). Each row: the rule, where upstream says it, the {@code
 * auths} keys in document order, the image the keyring is asked about, and the key whose credential
 * is used (or none).
 */
class CredentialLookupTest {

  @ParameterizedTest(name = "{0} ({1}): keys [{2}], image {3} -> {4}")
  @CsvSource(
      delimiter = '|',
      nullValues = "",
      textBlock =
          """
          # rule                                         | upstream                      | keys                                         | image                        | expected
          a host key serves every path of its host        | URLsMatch, path prefix        | quay.io                                      | quay.io/acme/foo             | quay.io
          a path key is tried before its host             | Add, reverse sort             | quay.io quay.io/acme                         | quay.io/acme/foo             | quay.io/acme
          a path key is tried before its host, any order  | Add, reverse sort             | quay.io/acme quay.io                         | quay.io/acme/foo             | quay.io/acme
          a longer path before its prefix                 | Add, reverse sort             | quay.io/acme quay.io/acme/foo                | quay.io/acme/foo/bar         | quay.io/acme/foo
          two paths of one host keep their own            | URLsMatch, path prefix        | quay.io/acme quay.io/other                   | quay.io/other/bar            | quay.io/other
          a path is a string prefix, not whole segments   | URLsMatch, strings.HasPrefix  | quay.io/acme                                 | quay.io/acme-corp/app        | quay.io/acme
          a repository's string prefix serves its sibling | URLsMatch, strings.HasPrefix  | quay.io/acme/foo                             | quay.io/acme/foo-bar         | quay.io/acme/foo
          the longer of two string prefixes first         | Add, reverse sort             | quay.io/acme quay.io/acme-corp               | quay.io/acme-corp/app        | quay.io/acme-corp
          a key longer than the image never serves it     | URLsMatch, strings.HasPrefix  | quay.io/acme/foo                             | quay.io/acme                 | none
          a trailing slash needs one in the image         | URLsMatch, strings.HasPrefix  | quay.io/acme/                                | quay.io/acme                 | none
          a trailing slash serves what is below           | URLsMatch, strings.HasPrefix  | quay.io/acme/                                | quay.io/acme/foo             | quay.io/acme/
          https:// is dropped from a key                  | Add, url.Parse                | https://quay.io/acme                         | quay.io/acme/foo             | https://quay.io/acme
          http:// is dropped from a key                   | Add, url.Parse                | http://registry.example.com                  | registry.example.com/a       | http://registry.example.com
          /v2/ before a path is dropped                   | Add, effectivePath            | https://registry.example.com/v2/team         | registry.example.com/team/a  | https://registry.example.com/v2/team
          /v1/ alone leaves the host                      | Add, effectivePath            | registry.example.com/v1/                     | registry.example.com/a       | registry.example.com/v1/
          /v2 without its slash is a path                 | Add, effectivePath            | registry.example.com/v2                      | registry.example.com/team    | none
          keys filed alike keep document order            | Add (Go map order; ours)      | https://quay.io quay.io                      | quay.io/a                    | https://quay.io
          keys filed alike keep document order, reversed  | Add (Go map order; ours)      | quay.io https://quay.io                      | quay.io/a                    | quay.io
          equal ports match                               | URLsMatch, SplitURL           | localhost:5000                               | localhost:5000/a             | localhost:5000
          a key without port never serves one with        | URLsMatch, SplitURL           | localhost                                    | localhost:5000/a             | none
          a key with a port never serves one without      | URLsMatch, SplitURL           | quay.io:443                                  | quay.io/a                    | none
          a port must be digits                           | Add, url.Parse                | quay.io:abc                                  | quay.io/a                    | none
          host labels compare case-sensitively            | URLsMatch, filepath.Match     | Quay.io                                      | quay.io/a                    | none
          a star globs one whole label                    | URLsMatch, filepath.Match     | *.example.com                                | a.example.com/x              | *.example.com
          a star never spans two labels                   | URLsMatch, len(parts)         | *.example.com                                | a.b.example.com/x            | none
          a star never stands for no label                | URLsMatch, len(parts)         | *.example.com                                | example.com/x                | none
          an exact host before a glob                     | Add, reverse sort             | *.example.com a.example.com                  | a.example.com/x              | a.example.com
          a glob may be part of a label                   | URLsMatch, filepath.Match     | reg*.example.com                             | registry.example.com/x       | reg*.example.com
          a partial glob still has to match               | URLsMatch, filepath.Match     | reg*.example.com                             | mirror.example.com/x         | none
          a glob key with a path and port                 | URLsMatch, filepath.Match     | *.example.com:5000/team                      | a.example.com:5000/team/app  | *.example.com:5000/team
          a question mark starts a URL query              | Add, url.Parse                | registry?.example.com                        | registry1.example.com/x      | none
          a class matches one character of it             | URLsMatch, filepath.Match     | registry[0-9].example.com                    | registry1.example.com/x      | registry[0-9].example.com
          a class refuses others                          | URLsMatch, filepath.Match     | registry[0-9].example.com                    | registryx.example.com/x      | none
          a class beside a port keeps the port in a label | SplitURL, net.SplitHostPort   | registry[0-9].example.com:5000               | registry1.example.com:5000/x | none
          a negated class is not a valid URL host         | Add, url.Parse                | registry[^x].example.com                     | registry1.example.com/x      | none
          an escape is not a valid URL host               | Add, url.Parse                | registr\\y.example.com                       | registry.example.com/x       | none
          a malformed class matches nothing               | URLsMatch, ErrBadPattern      | registry[.example.com                        | registry[.example.com/x      | none
          user info before @ is dropped                   | Add, url.Parse                | robot@quay.io                                | quay.io/a                    | robot@quay.io
          escapes in a key path are decoded               | Add, url.Parse                | quay.io/ac%6De                               | quay.io/acme/x               | quay.io/ac%6De
          the legacy Hub key serves Hub images            | Lookup, isDefaultRegistryMatch| https://index.docker.io/v1/                  | docker.io/library/nginx      | https://index.docker.io/v1/
          every spelling of the legacy Hub key            | Lookup, defaultRegistryHost   | index.docker.io/v1/                          | docker.io/acme/app           | index.docker.io/v1/
          the legacy Hub key only when none matches       | Lookup                        | https://index.docker.io/v1/ docker.io/acme   | docker.io/acme/app           | docker.io/acme
          a Hub key matches Hub images directly           | URLsMatch                     | docker.io/library                            | docker.io/library/nginx      | docker.io/library
          a legacy key with a path is no fallback         | Lookup, defaultRegistryHost   | index.docker.io/library                      | docker.io/library/nginx      | none
          the legacy Hub key serves a host without dots   | isDefaultRegistryMatch        | https://index.docker.io/v1/                  | localhost/foo                | https://index.docker.io/v1/
          the legacy Hub key never serves a dotted host   | isDefaultRegistryMatch        | https://index.docker.io/v1/                  | quay.io/acme/foo             | none
          the legacy Hub key never serves a port          | isDefaultRegistryMatch        | https://index.docker.io/v1/                  | localhost:5000/foo           | none
          a group path matches the keys serving all of it | URLsMatch, strings.HasPrefix  | quay.io/acme/app quay.io/acme                | quay.io/acme/                | quay.io/acme
          a group path matches a key ending in its slash  | Add, reverse sort             | quay.io/acme quay.io/acme/                   | quay.io/acme/                | quay.io/acme/
          nothing to match                                | Lookup                        |                                              | quay.io/a                    | none
          """)
  void picksTheCredentialTheKubeletWouldUse(
      String rule, String upstream, String keys, String image, String expected) {
    DockerConfig config = configWithKeys(keys);

    Optional<DockerConfig.CredentialMatch> match = config.credentialFor(image);

    if (expected.equals("none")) {
      assertTrue(match.isEmpty(), () -> rule + ": expected no credential, got " + match);
    } else {
      assertTrue(match.isPresent(), () -> rule + ": expected " + expected + ", got none");
      assertEquals(expected, match.get().key(), rule);
      // The credential is the one stored under that key, not a neighbour's.
      assertSame(config.auths().get(expected), match.get().credential());
    }
  }

  /**
   * Issue "the credential taken from the last matching source key": the same keys in every order
   * give the key the kubelet's order puts first, so neither "first listed" nor "last listed" can
   * pass (keyring.go, Add sorts its index whatever the document order).
   */
  @ParameterizedTest(name = "keys {0} in every order, image {1} -> {2}")
  @MethodSource("keySets")
  void theSameKeysInAnyOrderGiveTheSameCredential(
      List<String> keys, String image, String expected) {
    List<List<String>> orders = permutations(keys);
    assertTrue(orders.size() >= 6, "at least three keys");
    for (List<String> order : orders) {
      Optional<DockerConfig.CredentialMatch> match =
          configWithKeys(String.join(" ", order)).credentialFor(image);
      assertEquals(
          Optional.of(expected), match.map(DockerConfig.CredentialMatch::key), "order " + order);
    }
  }

  static Stream<Arguments> keySets() {
    return Stream.of(
        Arguments.of(
            List.of("quay.io", "quay.io/acme", "quay.io/acme/team"),
            "quay.io/acme/team/app",
            "quay.io/acme/team"),
        Arguments.of(
            List.of("quay.io", "quay.io/acme", "quay.io/acme-corp"),
            "quay.io/acme-corp/app",
            "quay.io/acme-corp"),
        Arguments.of(
            List.of("*.example.com", "registry.example.com", "registry.example.com/team"),
            "registry.example.com/team/app",
            "registry.example.com/team"),
        Arguments.of(
            List.of("https://quay.io/v1/", "quay.io/acme", "ghcr.io/acme"),
            "quay.io/acme/app",
            "quay.io/acme"),
        Arguments.of(
            List.of("https://index.docker.io/v1/", "docker.io", "docker.io/library", "quay.io"),
            "docker.io/library/nginx",
            "docker.io/library"));
  }

  /**
   * What a node would pick for the entry's images: a repository entry's repository as the node
   * names it, a group or mirror as its path followed by "/" (Entry.keyringImage).
   */
  @ParameterizedTest(name = "{0} {1} with keys [{2}] -> {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          REPOSITORY       | quay.io/acme-corp/app       | quay.io/acme                        | quay.io/acme
          REPOSITORY       | docker.io/nginx             | docker.io/library docker.io/nginx   | docker.io/library
          REPOSITORY_GROUP | quay.io/acme                | quay.io/acme/app quay.io/acme       | quay.io/acme
          REPOSITORY_GROUP | quay.io/acme                | quay.io/acme quay.io/acme/          | quay.io/acme/
          REPOSITORY_GROUP | quay.io/acme-corp           | quay.io quay.io/acme                | quay.io/acme
          MIRROR           | registry.example.com/mirror/ | registry.example.com/mirror/docker.io registry.example.com | registry.example.com
          """)
  void anEntryGetsTheCredentialEveryImageItServesWouldUse(
      EntryForm form, String path, String keys, String expected) {
    Entry entry = new Entry(0, form, path, Auth.secretRef("pull"));

    Optional<DockerConfig.CredentialMatch> match = configWithKeys(keys).credentialFor(entry);

    assertEquals(Optional.of(expected), match.map(DockerConfig.CredentialMatch::key));
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

  private static List<List<String>> permutations(List<String> items) {
    if (items.isEmpty()) {
      return List.of(List.of());
    }
    List<List<String>> out = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      List<String> rest = new ArrayList<>(items);
      String head = rest.remove(i);
      for (List<String> tail : permutations(rest)) {
        List<String> order = new ArrayList<>();
        order.add(head);
        order.addAll(tail);
        out.add(order);
      }
    }
    return out;
  }
}
