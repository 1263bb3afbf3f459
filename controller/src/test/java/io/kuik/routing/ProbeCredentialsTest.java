package io.kuik.routing;

import static io.kuik.routing.Fixtures.alternative;
import static io.kuik.routing.Fixtures.group;
import static io.kuik.routing.Fixtures.image;
import static io.kuik.routing.Fixtures.repository;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.kuik.model.Auth;
import io.kuik.model.DockerConfig;
import io.kuik.model.Entry;
import io.kuik.model.EntryForm;
import io.kuik.model.RegistryCredential;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingResource;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProbeCredentialsTest {

  private static final String CONFIG =
      "{\"auths\":{\"quay.io\":{\"username\":\"robot\",\"password\":\"p1\"},"
          + "\"quay.io/acme\":{\"username\":\"acme-robot\",\"password\":\"p2\"}}}";

  private final Map<String, Secret> secrets = new HashMap<>();

  private static Secret secret(String type, String key, String json) {
    return new SecretBuilder()
        .withNewMetadata()
        .withName("pull")
        .withNamespace("kuik-system")
        .endMetadata()
        .withType(type)
        .addToData(key, Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8)))
        .build();
  }

  private RegistryCredential credentialFor(Entry entry) {
    Entry original =
        entry.form() == EntryForm.REPOSITORY_GROUP
            ? group(0, "docker.io/library")
            : repository(0, "docker.io/nginx");
    RoutingResource resource = alternative("acme", RewritePolicy.ON_FAILURE, original, entry);
    Candidate candidate =
        new Candidate(image(entry.authsKey() + ":1"), Band.ON_FAILURE_ALTERNATIVE, resource, entry);
    return new ProbeCredentials(name -> Optional.ofNullable(secrets.get(name)))
        .credentialFor(candidate);
  }

  @Test
  void picksWhatTheKubeletWouldForTheEntryPath() {
    secrets.put("pull", secret("kubernetes.io/dockerconfigjson", ".dockerconfigjson", CONFIG));

    assertEquals(
        RegistryCredential.basic("acme-robot", "p2"),
        credentialFor(repository(1, "quay.io/acme/nginx", Auth.secretRef("pull"))));
    assertEquals(
        RegistryCredential.basic("robot", "p1"),
        credentialFor(repository(1, "quay.io/other/nginx", Auth.secretRef("pull"))));
  }

  /**
   * The probe asks with what the syncer writes for the entry: DockerConfig.credentialFor(entry),
   * the kubelet's rules (keyring.go URLsMatch: a key's path is a string prefix of the image's).
   */
  @ParameterizedTest(name = "{0} {1} is probed as {2}")
  @CsvSource({
    "repository, quay.io/acme-corp/nginx, acme-robot",
    "repository, quay.io/acme/nginx, acme-robot",
    "repository, quay.io/other/nginx, robot",
    "group, quay.io/acme, acme-robot",
    "group, quay.io/acme-corp, acme-robot",
    "group, quay.io/ac, robot",
  })
  void probesWithTheCredentialTheSyncerWritesForTheEntry(String form, String path, String user)
      throws Exception {
    secrets.put("pull", secret("kubernetes.io/dockerconfigjson", ".dockerconfigjson", CONFIG));
    Entry entry =
        form.equals("group")
            ? group(1, path, Auth.secretRef("pull"))
            : repository(1, path, Auth.secretRef("pull"));

    RegistryCredential probed = credentialFor(entry);

    assertEquals(user, probed.username());
    assertEquals(
        DockerConfig.parse(CONFIG).credentialFor(entry).orElseThrow().credential(), probed);
  }

  @ParameterizedTest(name = "if {0}, expect an anonymous probe")
  @CsvSource({
    "the Secret is missing, missing",
    "the Secret is Opaque, Opaque",
    "the Secret has no .dockerconfigjson, no-key",
    "the Secret is malformed, malformed",
    "no key covers the path, other-host",
  })
  void probesAnonymouslyWithoutAUsableCredential(String why, String variant) {
    switch (variant) {
      case "Opaque" -> secrets.put("pull", secret("Opaque", ".dockerconfigjson", CONFIG));
      case "no-key" ->
          secrets.put("pull", secret("kubernetes.io/dockerconfigjson", "config.json", CONFIG));
      case "malformed" ->
          secrets.put(
              "pull", secret("kubernetes.io/dockerconfigjson", ".dockerconfigjson", "{not json"));
      case "other-host" ->
          secrets.put(
              "pull", secret("kubernetes.io/dockerconfigjson", ".dockerconfigjson", CONFIG));
      default -> {}
    }
    String path = variant.equals("other-host") ? "ghcr.io/acme/nginx" : "quay.io/acme/nginx";

    assertNull(credentialFor(repository(1, path, Auth.secretRef("pull"))));
  }

  @Test
  void probesProviderEntriesAnonymously() {
    secrets.put("pull", secret("kubernetes.io/dockerconfigjson", ".dockerconfigjson", CONFIG));

    assertNull(credentialFor(repository(1, "quay.io/acme/nginx", new Auth(null, "ecr", true))));
    assertNull(credentialFor(repository(1, "quay.io/acme/nginx", null)));
  }
}
