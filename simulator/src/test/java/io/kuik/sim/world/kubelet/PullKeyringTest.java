package io.kuik.sim.world.kubelet;

import static io.kuik.sim.Manifests.auths;
import static io.kuik.sim.Manifests.pullSecret;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.DockerConfig.CredentialMatch;
import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.sim.Manifests;
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

/** The kubelet's choice and order of credentials across a pod's pull Secrets. */
class PullKeyringTest {

  private static ImageReference image(String reference) {
    try {
      return ImageReference.parse(reference);
    } catch (InvalidImageReferenceException e) {
      throw new IllegalArgumentException(e);
    }
  }

  /** Each Secret as "key user pass key user pass ..."; the result as the users tried in order. */
  private static List<String> usersTried(String reference, String... secrets)
      throws PullKeyring.InvalidPullSecret {
    List<ObjectNode> objects = new ArrayList<>();
    for (int i = 0; i < secrets.length; i++) {
      objects.add(pullSecret("team-a", "s" + i, auths(secrets[i].split(" "))));
    }
    return PullKeyring.of(objects).lookup(image(reference)).stream()
        .map(m -> m.credential().username())
        .toList();
  }

  static Stream<Arguments> table() {
    return Stream.of(
        Arguments.of(
            "if a longer path and its host match, expect the longer path first",
            "quay.io/acme/foo:1",
            new String[] {"quay.io host x quay.io/acme path x"},
            List.of("path", "host")),
        Arguments.of(
            "if the specific key is in the second Secret, expect it first all the same",
            "quay.io/acme/foo:1",
            new String[] {"quay.io host x", "quay.io/acme path x"},
            List.of("path", "host")),
        Arguments.of(
            "if two Secrets hold the same key, expect both in the pod's order",
            "quay.io/acme/foo:1",
            new String[] {"quay.io first x", "quay.io second x"},
            List.of("first", "second")),
        Arguments.of(
            "if an exact host and a glob match, expect the exact host first",
            "registry.example.com/team/app:1",
            new String[] {"*.example.com glob x registry.example.com exact x"},
            List.of("exact", "glob")),
        Arguments.of(
            "if no key matches, expect none (an anonymous pull)",
            "ghcr.io/acme/foo:1",
            new String[] {"quay.io host x"},
            List.of()),
        Arguments.of(
            "if a Docker Hub image has only the legacy index key, expect it",
            "nginx:1.27",
            new String[] {"https://index.docker.io/v1/ legacy x"},
            List.of("legacy")),
        Arguments.of(
            "if a Docker Hub image has a direct key, expect no legacy fallback at all",
            "nginx:1.27",
            new String[] {"https://index.docker.io/v1/ legacy x", "docker.io hub x"},
            List.of("hub")),
        Arguments.of(
            "if the key names a neighbouring path, expect no match (whole segments)",
            "quay.io/acme-bar/foo:1",
            new String[] {"quay.io/acme path x"},
            List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("table")
  void credentialsAreTriedMostSpecificFirstAcrossSecrets(
      String rule, String reference, String[] secrets, List<String> expected) throws Exception {
    assertEquals(expected, usersTried(reference, secrets), rule);
  }

  @Test
  void secretsOfOtherTypesAreIgnoredAndTheLegacyDockercfgIsRead() throws Exception {
    ObjectNode opaque =
        Json.yaml(
            "apiVersion: v1\nkind: Secret\nmetadata: {name: o, namespace: team-a}\ntype: Opaque");
    opaque.putObject("data").put(".dockerconfigjson", b64("{\"auths\":{\"quay.io\":{}}}"));
    ObjectNode dockercfg =
        Json.yaml(
            "apiVersion: v1\nkind: Secret\nmetadata: {name: c, namespace: team-a}\n"
                + "type: kubernetes.io/dockercfg");
    dockercfg
        .putObject("data")
        .put(".dockercfg", b64("{\"quay.io\":{\"username\":\"old\",\"password\":\"p\"}}"));

    List<CredentialMatch> found =
        PullKeyring.of(List.of(opaque, dockercfg)).lookup(image("quay.io/acme/foo:1"));

    assertEquals(1, found.size());
    assertEquals("old", found.get(0).credential().username());
  }

  @Test
  void aDocumentWithoutAuthsHoldsNoCredentialButAnUndecodableEntryFailsTheKeyring() {
    assertDoesNotFail(Manifests.dockerConfigSecret("team-a", "empty", "{}"));
    PullKeyring.InvalidPullSecret failure =
        assertThrows(
            PullKeyring.InvalidPullSecret.class,
            () ->
                PullKeyring.of(
                    List.of(
                        pullSecret("team-a", "fine", auths("quay.io", "a", "b")),
                        Manifests.dockerConfigSecret(
                            "team-a", "bad", "{\"auths\":{\"quay.io\":{\"auth\":\"%%%\"}}}"))));
    assertTrue(
        failure.getMessage().startsWith("image pull Secret team-a/bad: "), failure.getMessage());
  }

  private static void assertDoesNotFail(ObjectNode secret) {
    try {
      assertTrue(PullKeyring.of(List.of(secret)).lookup(image("quay.io/a/b:1")).isEmpty());
    } catch (PullKeyring.InvalidPullSecret e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  private static String b64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
