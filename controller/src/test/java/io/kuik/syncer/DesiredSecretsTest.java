package io.kuik.syncer;

import static io.kuik.syncer.SyncerHarness.alternative;
import static io.kuik.syncer.SyncerHarness.repository;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.model.DockerConfig;
import io.kuik.model.RegistryCredential;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingResource;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DesiredSecretsTest {

  static final RoutingResource ACME =
      alternative(
          "acme", RewritePolicy.ALWAYS, null, repository(0, "quay.io/acme/foo", "acme-pull"));
  static final DockerConfig CONTENT =
      new DockerConfig(Map.of("quay.io/acme/foo", RegistryCredential.basic("acme", "s3cret")));

  @Test
  void theDesiredSecretIsADockerConfigJsonOwnedByTheResourceWithNothingElse() {
    Secret secret = DesiredSecrets.desiredSecret(ACME, "team-a", CONTENT);

    assertEquals("v1", secret.getApiVersion());
    assertEquals("Secret", secret.getKind());
    assertEquals("kuik-inject-imagealternative-acme", secret.getMetadata().getName());
    assertEquals("team-a", secret.getMetadata().getNamespace());
    assertEquals("kubernetes.io/dockerconfigjson", secret.getType());
    assertEquals(
        Map.of("app.kubernetes.io/managed-by", "kuik-secret-syncer"),
        secret.getMetadata().getLabels());
    assertEquals(List.of(".dockerconfigjson"), List.copyOf(secret.getData().keySet()));
    assertEquals(
        CONTENT.toJson(),
        new String(
            Base64.getDecoder().decode(secret.getData().get(".dockerconfigjson")),
            StandardCharsets.UTF_8));
    assertTrue(secret.getStringData() == null || secret.getStringData().isEmpty());
    assertNull(secret.getImmutable());
    assertTrue(
        secret.getMetadata().getAnnotations() == null
            || secret.getMetadata().getAnnotations().isEmpty(),
        "no timestamp or anything that drifts");

    OwnerReference owner = secret.getMetadata().getOwnerReferences().get(0);
    assertEquals(1, secret.getMetadata().getOwnerReferences().size());
    assertEquals("kuik.enix.io/v1alpha1", owner.getApiVersion());
    assertEquals("ImageAlternative", owner.getKind());
    assertEquals("acme", owner.getName());
    assertEquals("uid-acme", owner.getUid());
    assertEquals(Boolean.TRUE, owner.getController());
    assertNull(owner.getBlockOwnerDeletion());
  }

  @Test
  void theSameDesiredSecretIsBuiltTheSameEveryTime() {
    assertEquals(
        DesiredSecrets.desiredSecret(ACME, "team-a", CONTENT),
        DesiredSecrets.desiredSecret(ACME, "team-a", CONTENT));
  }

  @Test
  void theDataSizeCountsTheKeyAndTheDecodedJson() {
    assertEquals(
        CONTENT.toJson().getBytes(StandardCharsets.UTF_8).length + ".dockerconfigjson".length(),
        DesiredSecrets.dataBytes(CONTENT));
  }

  @Test
  void theHashIsStableAndIgnoresTheOrderOfEntries() {
    Map<String, RegistryCredential> one = new LinkedHashMap<>();
    one.put("a.io/x", RegistryCredential.basic("a", "1"));
    one.put("b.io/y", RegistryCredential.basic("b", "2"));
    Map<String, RegistryCredential> other = new LinkedHashMap<>();
    other.put("b.io/y", RegistryCredential.basic("b", "2"));
    other.put("a.io/x", RegistryCredential.basic("a", "1"));
    assertEquals(
        DesiredSecrets.hash(ACME, "team-a", new DockerConfig(one)),
        DesiredSecrets.hash(ACME, "team-a", new DockerConfig(other)));
    assertEquals(
        DesiredSecrets.hash(ACME, "team-a", CONTENT),
        DesiredSecrets.hash(ACME, "team-a", new DockerConfig(new LinkedHashMap<>(CONTENT.auths()))),
        "equal content, equal hash");
  }

  @Test
  void theHashChangesWithEverythingTheApplySends() {
    long base = DesiredSecrets.hash(ACME, "team-a", CONTENT);
    RoutingResource recreated =
        new RoutingResource(ACME.id(), "uid-2", null, null, ACME.rewritePolicy(), ACME.entries());
    RoutingResource other =
        alternative(
            "other", RewritePolicy.ALWAYS, null, repository(0, "quay.io/acme/foo", "acme-pull"));
    assertNotEquals(base, DesiredSecrets.hash(ACME, "team-b", CONTENT), "namespace");
    assertNotEquals(base, DesiredSecrets.hash(recreated, "team-a", CONTENT), "owner uid");
    assertNotEquals(base, DesiredSecrets.hash(other, "team-a", CONTENT), "resource");
    assertNotEquals(base, DesiredSecrets.hash(ACME, "team-a", DockerConfig.empty()), "content");
  }
}
