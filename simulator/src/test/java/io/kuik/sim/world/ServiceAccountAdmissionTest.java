package io.kuik.sim.world;

import static io.kuik.sim.world.Fixture.ADMIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.world.api.MutatingAdmission;
import io.kuik.sim.world.api.Operation;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The ServiceAccount admission plugin, read from kubernetes/kubernetes {@code
 * plugin/pkg/admission/serviceaccount/admission.go} ({@code Plugin.Admit}), and the controller that
 * gives every namespace its {@code default} ServiceAccount ({@code
 * pkg/controller/serviceaccount/serviceaccounts_controller.go}, {@code syncNamespace}).
 */
class ServiceAccountAdmissionTest {

  private final Fixture f = new Fixture();

  ServiceAccountAdmissionTest() {
    f.namespace("team-a");
  }

  private void serviceAccount(String name, String... pullSecrets) {
    ObjectNode account =
        Json.yaml(
            "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: "
                + name
                + ", namespace: team-a}");
    if (pullSecrets.length > 0) {
      var refs = account.putArray("imagePullSecrets");
      for (String secret : pullSecrets) {
        refs.addObject().put("name", secret);
      }
    }
    f.api.create(ADMIN, account);
  }

  private static List<String> pullSecrets(JsonNode pod) {
    List<String> names = new ArrayList<>();
    pod.path("spec").path("imagePullSecrets").forEach(r -> names.add(r.path("name").asString()));
    return names;
  }

  private ObjectNode pod(String name, String serviceAccount, String... ownSecrets) {
    ObjectNode pod = Fixture.pod("team-a", name);
    if (serviceAccount != null) {
      pod.withObjectProperty("spec").put("serviceAccountName", serviceAccount);
    }
    if (ownSecrets.length > 0) {
      var refs = pod.withObjectProperty("spec").putArray("imagePullSecrets");
      for (String secret : ownSecrets) {
        refs.addObject().put("name", secret);
      }
    }
    return pod;
  }

  @Test
  void everyNamespaceGetsADefaultServiceAccountAndGetsItBackWhenDeleted() {
    assertTrue(f.api.find(ADMIN, ResourceType.SERVICE_ACCOUNT, "team-a", "default").isPresent());
    assertTrue(
        f.api.find(ADMIN, ResourceType.SERVICE_ACCOUNT, "kube-system", "default").isPresent());

    f.api.delete(ADMIN, ResourceType.SERVICE_ACCOUNT, "team-a", "default");

    assertTrue(f.api.find(ADMIN, ResourceType.SERVICE_ACCOUNT, "team-a", "default").isPresent());
  }

  @Test
  void aPodNamingNoServiceAccountRunsAsDefault() {
    ObjectNode stored = f.api.create(ADMIN, pod("web", null));

    assertEquals("default", stored.path("spec").path("serviceAccountName").asString());
  }

  @Test
  void aPodWithNoPullSecretsGetsItsServiceAccountsOnes() {
    serviceAccount("builder", "registry-a", "registry-b");

    ObjectNode stored = f.api.create(ADMIN, pod("web", "builder"));

    assertEquals(List.of("registry-a", "registry-b"), pullSecrets(stored));
  }

  @Test
  void aPodWithPullSecretsOfItsOwnKeepsOnlyThose() {
    serviceAccount("builder", "registry-a");

    ObjectNode stored = f.api.create(ADMIN, pod("web", "builder", "mine"));

    assertEquals(List.of("mine"), pullSecrets(stored));
  }

  @Test
  void aPodNamingAServiceAccountThatDoesNotExistIsRefused() {
    ApiException refused =
        assertThrows(ApiException.class, () -> f.api.create(ADMIN, pod("web", "ghost")));

    assertEquals(403, refused.code());
    assertEquals(
        "pods \"web\" is forbidden: error looking up service account team-a/ghost:"
            + " serviceaccount \"ghost\" not found",
        refused.getMessage());
  }

  @Test
  void theServiceAccountsPullSecretsReachTheWebhooksWhichRunAfterThePlugin() {
    ObjectNode account = f.get(ResourceType.SERVICE_ACCOUNT, "team-a", "default");
    account.putArray("imagePullSecrets").addObject().put("name", "team-creds");
    f.api.update(ADMIN, account);
    List<List<String>> seen = new ArrayList<>();
    f.api
        .mutatingAdmission()
        .register(
            new MutatingAdmission(
                "pods.example.com",
                Set.of(ResourceType.POD),
                Set.of(Operation.CREATE),
                MutatingAdmission.FailurePolicy.FAIL,
                Duration.ofSeconds(3),
                request -> {
                  seen.add(pullSecrets(request.object()));
                  return MutatingAdmission.Response.allow();
                }));

    f.api.create(ADMIN, pod("web", null));

    assertEquals(List.of(List.of("team-creds")), seen);
  }

  @Test
  void aMirrorPodIsLeftAlone() {
    ObjectNode mirror = pod("static-web", "ghost");
    mirror
        .withObjectProperty("metadata")
        .putObject("annotations")
        .put("kubernetes.io/config.mirror", "x");

    ObjectNode stored = f.api.create(ADMIN, mirror);

    assertFalse(stored.path("spec").has("imagePullSecrets"));
  }
}
