package io.kuik.sim.world.kubelet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.sim.ManifestBuilders;
import io.kuik.sim.world.object.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * The simulated kubelet's keyring against the rules of the real one. Each case names its rule and
 * where kubernetes/kubernetes (or Go) states it; the pod's pull Secrets are written as raw {@code
 * .dockerconfigjson} documents, so key order, case and shape are exactly what the case says; the
 * result is the user names the kubelet would try, in order ({@code ""}: an entry without
 * credential), or {@code FAILS} when the keyring cannot be built.
 */
class PullKeyringTest {

  private static final List<String> FAILS = List.of("FAILS");

  /** A document listing {@code key user key user ...} in that order, every password "p". */
  private static String auths(String... keyAndUser) {
    StringBuilder json = new StringBuilder("{\"auths\":{");
    for (int i = 0; i < keyAndUser.length; i += 2) {
      json.append(i == 0 ? "" : ",")
          .append(Json.MAPPER.writeValueAsString(keyAndUser[i]))
          .append(":{\"username\":\"")
          .append(keyAndUser[i + 1])
          .append("\",\"password\":\"p\"}");
    }
    return json.append("}}").toString();
  }

  private static Arguments rule(
      String rule, String upstream, String image, List<String> expected, String... documents) {
    return Arguments.of(rule, upstream, image, expected, List.of(documents));
  }

  static Stream<Arguments> rules() {
    String keyring = "pkg/credentialprovider/keyring.go";
    String config = "pkg/credentialprovider/config.go";
    return Stream.of(
        // ---- reading a key: BasicDockerKeyring.Add, through Go's url.Parse
        rule(
            "if a key has https://, expect it dropped",
            keyring + " BasicDockerKeyring.Add",
            "quay.io/acme/app:1",
            List.of("u"),
            auths("https://quay.io/acme", "u")),
        rule(
            "if a key has http://, expect it dropped",
            keyring + " BasicDockerKeyring.Add",
            "registry.example.com/app:1",
            List.of("u"),
            auths("http://registry.example.com", "u")),
        rule(
            "if a key path starts with /v2/, expect those three characters dropped",
            keyring + " BasicDockerKeyring.Add (effectivePath)",
            "registry.example.com/team/app:1",
            List.of("u"),
            auths("https://registry.example.com/v2/team", "u")),
        rule(
            "if a key path is /v1/ alone, expect the host alone",
            keyring + " BasicDockerKeyring.Add (effectivePath)",
            "registry.example.com/any/app:1",
            List.of("u"),
            auths("registry.example.com/v1/", "u")),
        rule(
            "if a key path is /v2 without a slash, expect it kept as a path",
            keyring + " BasicDockerKeyring.Add (effectivePath)",
            "registry.example.com/team/app:1",
            List.of(),
            auths("registry.example.com/v2", "u")),
        rule(
            "if a key has user info before @, expect the host after it",
            keyring + " BasicDockerKeyring.Add; net/url Parse",
            "quay.io/acme/app:1",
            List.of("u"),
            auths("robot@quay.io", "u")),
        rule(
            "if a key has a ?, expect the rest read as a URL query, so no glob",
            keyring + " BasicDockerKeyring.Add; net/url Parse",
            "registry1.example.com/app:1",
            List.of(),
            auths("registry?.example.com", "u")),
        rule(
            "if a key host holds ^, expect Go's URL parser to refuse it and the key dropped",
            keyring + " BasicDockerKeyring.Add; net/url parseHost",
            "registry1.example.com/app:1",
            List.of(),
            auths("registry[^x].example.com", "u")),
        // ---- matching: URLsMatch, SplitURL, filepath.Match
        rule(
            "if key and image have the same port, expect a match",
            keyring + " URLsMatch",
            "localhost:5000/app:1",
            List.of("u"),
            auths("localhost:5000", "u")),
        rule(
            "if the key has no port and the image has one, expect no match",
            keyring + " URLsMatch",
            "localhost:5000/app:1",
            List.of(),
            auths("localhost", "u")),
        rule(
            "if the key has a port and the image none, expect no match",
            keyring + " URLsMatch",
            "quay.io/acme/app:1",
            List.of(),
            auths("quay.io:443", "u")),
        rule(
            "if a * label faces one label, expect a match",
            keyring + " URLsMatch; path/filepath Match",
            "registry.example.com/app:1",
            List.of("u"),
            auths("*.example.com", "u")),
        rule(
            "if a * label would have to span two labels, expect no match",
            keyring + " URLsMatch (len(globURLParts) != len(targetURLParts))",
            "a.b.example.com/app:1",
            List.of(),
            auths("*.example.com", "u")),
        rule(
            "if a label is partly a glob, expect it to match within the label",
            keyring + " URLsMatch; path/filepath Match",
            "app1.k8s.io/app:1",
            List.of("u"),
            auths("app*.k8s.io", "u")),
        rule(
            "if a label holds a class, expect one character of it to match",
            keyring + " URLsMatch; path/filepath Match",
            "registry7.example.com/app:1",
            List.of("u"),
            auths("registry[0-9].example.com", "u")),
        rule(
            "if a class faces a character outside it, expect no match",
            keyring + " URLsMatch; path/filepath Match",
            "registryx.example.com/app:1",
            List.of(),
            auths("registry[0-9].example.com", "u")),
        rule(
            "if a class sits beside a port, expect SplitHostPort to refuse and the port to stay in"
                + " the last label",
            keyring + " SplitURL; net SplitHostPort",
            "registry7.example.com:5000/app:1",
            List.of(),
            auths("registry[0-9].example.com:5000", "u")),
        rule(
            "if a host label differs in case, expect no match",
            keyring + " URLsMatch; path/filepath Match",
            "quay.io/acme/app:1",
            List.of(),
            auths("Quay.io", "u")),
        rule(
            "if the key path is a string prefix of the image path, expect a match",
            keyring + " URLsMatch (strings.HasPrefix)",
            "quay.io/acme-corp/app:1",
            List.of("u"),
            auths("quay.io/acme", "u")),
        rule(
            "if the key path ends with / and the image is that path, expect no match",
            keyring + " URLsMatch (strings.HasPrefix)",
            "quay.io/acme:1",
            List.of(),
            auths("quay.io/acme/", "u")),
        // ---- order: the index sorted in reverse, every match tried
        rule(
            "if several keys match, expect them all, in reverse lexicographic order",
            keyring + " BasicDockerKeyring.Add (sort.Reverse) and Lookup",
            "quay.io/acme/app:1",
            List.of("path", "host", "glob"),
            auths("*.io", "glob", "quay.io", "host", "quay.io/acme", "path")),
        rule(
            "if the longer of two string prefixes matches, expect it first",
            keyring + " BasicDockerKeyring.Add (sort.Reverse)",
            "quay.io/acme-corp/app:1",
            List.of("corp", "acme"),
            auths("quay.io/acme", "acme", "quay.io/acme-corp", "corp")),
        rule(
            "if an exact host and a glob match, expect the exact host first",
            keyring + " BasicDockerKeyring.Add (sort.Reverse)",
            "registry.example.com/app:1",
            List.of("exact", "glob"),
            auths("*.example.com", "glob", "registry.example.com", "exact")),
        rule(
            "if the specific key is in the pod's second Secret, expect it first all the same",
            "pkg/credentialprovider/secrets/secrets.go MakeDockerKeyring; " + keyring + " Add",
            "quay.io/acme/app:1",
            List.of("path", "host"),
            auths("quay.io", "host"),
            auths("quay.io/acme", "path")),
        rule(
            "if two Secrets hold the same key, expect both, in the pod's order",
            keyring + " BasicDockerKeyring.Add (creds[key] appended)",
            "quay.io/acme/app:1",
            List.of("first", "second"),
            auths("quay.io", "first"),
            auths("quay.io", "second")),
        rule(
            "if two keys of one Secret are filed under one string, expect both, in document order",
            keyring + " BasicDockerKeyring.Add (Go map order; the simulator's choice)",
            "quay.io/acme/app:1",
            List.of("bare", "https"),
            auths("quay.io", "bare", "https://quay.io", "https")),
        rule(
            "if no key matches, expect none, so an anonymous pull",
            keyring + " BasicDockerKeyring.Lookup",
            "ghcr.io/acme/app:1",
            List.of(),
            auths("quay.io", "u")),
        // ---- Docker Hub: isDefaultRegistryMatch
        rule(
            "if a Docker Hub image has only the legacy key, expect it",
            keyring + " BasicDockerKeyring.Lookup; isDefaultRegistryMatch",
            "nginx:1.27",
            List.of("legacy"),
            auths("https://index.docker.io/v1/", "legacy")),
        rule(
            "if a Docker Hub image has a direct key, expect no legacy key at all",
            keyring + " BasicDockerKeyring.Lookup",
            "nginx:1.27",
            List.of("hub"),
            auths("https://index.docker.io/v1/", "legacy", "docker.io", "hub")),
        rule(
            "if an image's host has neither . nor :, expect the legacy key (localhost too)",
            keyring + " isDefaultRegistryMatch",
            "localhost/app:1",
            List.of("legacy"),
            auths("https://index.docker.io/v1/", "legacy")),
        rule(
            "if an image's host has a dot, expect no legacy key",
            keyring + " isDefaultRegistryMatch",
            "quay.io/acme/app:1",
            List.of(),
            auths("https://index.docker.io/v1/", "legacy")),
        // ---- decoding: Go's encoding/json into config.go's types
        rule(
            "if field names differ in case, expect them matched all the same",
            config + " DockerConfigJSON; encoding/json Unmarshal",
            "quay.io/acme/app:1",
            List.of("u"),
            "{\"Auths\":{\"quay.io\":{\"USERNAME\":\"u\",\"Password\":\"p\"}}}"),
        rule(
            "if an entry is null, expect an entry without credential, still tried",
            config + " DockerConfigEntry.UnmarshalJSON",
            "quay.io/acme/app:1",
            List.of(""),
            "{\"auths\":{\"quay.io\":null}}"),
        rule(
            "if an entry has only an identity token, expect it ignored, so no credential",
            config + " dockerConfigEntryWithAuth (username, password, email, auth only)",
            "quay.io/acme/app:1",
            List.of(""),
            "{\"auths\":{\"quay.io\":{\"identitytoken\":\"t\"}}}"),
        rule(
            "if auth is unpadded, expect it decoded",
            config + " decodeDockerConfigFieldAuth (RawStdEncoding)",
            "quay.io/acme/app:1",
            List.of("u"),
            "{\"auths\":{\"quay.io\":{\"auth\":\"dTpw\",\"username\":\"other\"}}}"),
        rule(
            "if auth has no colon, expect the keyring to fail",
            config + " decodeDockerConfigFieldAuth",
            "quay.io/acme/app:1",
            FAILS,
            "{\"auths\":{\"quay.io\":{\"auth\":\"bm9wYXNz\"}}}"),
        rule(
            "if a user name is a number, expect the keyring to fail",
            config + " DockerConfigEntry.UnmarshalJSON; encoding/json UnmarshalTypeError",
            "quay.io/acme/app:1",
            FAILS,
            "{\"auths\":{\"quay.io\":{\"username\":1}}}"),
        rule(
            "if an HttpHeaders value is not a string, expect the keyring to fail",
            config + " DockerConfigJSON.HttpHeaders map[string]string",
            "quay.io/acme/app:1",
            FAILS,
            auths("quay.io", "u").replace("}}}", "}},\"HttpHeaders\":{\"X-A\":1}}")),
        rule(
            "if text follows the document, expect the keyring to fail",
            "encoding/json Unmarshal",
            "quay.io/acme/app:1",
            FAILS,
            auths("quay.io", "u") + " {}"),
        rule(
            "if a key is given twice, expect the later entry",
            "encoding/json Unmarshal (map element replaced)",
            "quay.io/acme/app:1",
            List.of("later"),
            "{\"auths\":{\"quay.io\":{\"username\":\"earlier\"},\"quay.io\":{\"username\":"
                + "\"later\"}}}"),
        rule(
            "if auths is given twice, expect the keys of both",
            "encoding/json Unmarshal (existing map reused)",
            "quay.io/acme/app:1",
            List.of("path", "host"),
            "{\"auths\":{\"quay.io\":{\"username\":\"host\"}},\"auths\":{\"quay.io/acme\":"
                + "{\"username\":\"path\"}}}"),
        rule(
            "if auths is null, expect no credential",
            "encoding/json Unmarshal (null is a no-op)",
            "quay.io/acme/app:1",
            List.of(),
            "{\"auths\":null}"));
  }

  @ParameterizedTest(name = "{0} ({1})")
  @MethodSource("rules")
  void theKeyringFollowsTheKubeletsRules(
      String rule, String upstream, String image, List<String> expected, List<String> documents) {
    List<ObjectNode> secrets = new ArrayList<>();
    for (int i = 0; i < documents.size(); i++) {
      secrets.add(ManifestBuilders.dockerConfigSecret("team-a", "s" + i, documents.get(i)));
    }
    assertEquals(expected, usersTried(secrets, image), rule + " (" + upstream + ")");
  }

  private static List<String> usersTried(List<ObjectNode> secrets, String image) {
    try {
      // The kubelet looks up the repository as parsers.ParseImageName normalizes it.
      String repository = ImageReference.parse(image).repository();
      return PullKeyring.of(secrets).lookup(repository).stream()
          .map(PullKeyring.Credential::username)
          .toList();
    } catch (PullKeyring.InvalidPullSecret e) {
      return FAILS;
    } catch (InvalidImageReferenceException e) {
      throw new IllegalArgumentException(e);
    }
  }

  @Test
  void secretsOfOtherTypesAreIgnoredAndTheLegacyDockercfgIsRead() throws Exception {
    ObjectNode opaque =
        Json.yaml(
            "apiVersion: v1\nkind: Secret\nmetadata: {name: o, namespace: team-a}\ntype: Opaque");
    opaque.putObject("data").put(".dockerconfigjson", b64(auths("quay.io", "opaque")));
    ObjectNode dockercfg =
        Json.yaml(
            "apiVersion: v1\nkind: Secret\nmetadata: {name: c, namespace: team-a}\n"
                + "type: kubernetes.io/dockercfg");
    dockercfg
        .putObject("data")
        .put(".dockercfg", b64("{\"quay.io\":{\"username\":\"old\",\"password\":\"p\"}}"));

    assertEquals(List.of("old"), usersTried(List.of(opaque, dockercfg), "quay.io/acme/foo:1"));
  }

  @Test
  void anUndecodableSecretFailsTheKeyringNamingItAndNoValue() {
    PullKeyring.InvalidPullSecret failure =
        assertThrows(
            PullKeyring.InvalidPullSecret.class,
            () ->
                PullKeyring.of(
                    List.of(
                        ManifestBuilders.dockerConfigSecret(
                            "team-a", "fine", auths("quay.io", "a")),
                        ManifestBuilders.dockerConfigSecret(
                            "team-a",
                            "bad",
                            "{\"auths\":{\"quay.io\":{\"password\":\"hunter2\",\"auth\":\"%%\"}}}"))));
    assertTrue(
        failure.getMessage().startsWith("image pull Secret team-a/bad: "), failure.getMessage());
    assertTrue(!failure.getMessage().contains("hunter2"), failure.getMessage());
  }

  @Test
  void theIndexIsInReverseByteOrderOfWhatEachKeyIsFiledUnder() throws Exception {
    PullKeyring keyring =
        PullKeyring.of(
            List.of(
                ManifestBuilders.dockerConfigSecret(
                    "team-a",
                    "s",
                    auths(
                        "https://index.docker.io/v1/",
                        "a",
                        "quay.io",
                        "b",
                        "https://registry.example.com/v2/team",
                        "c",
                        "*.example.com",
                        "d",
                        "quay.io/acme",
                        "e"))));

    assertEquals(
        List.of(
            "registry.example.com/team",
            "quay.io/acme",
            "quay.io",
            "index.docker.io",
            "*.example.com"),
        keyring.index());
  }

  private static String b64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
