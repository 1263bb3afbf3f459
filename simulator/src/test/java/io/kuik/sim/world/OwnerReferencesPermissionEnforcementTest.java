package io.kuik.sim.world;

import static io.kuik.sim.world.Fixture.ADMIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.trace.Stage;
import io.kuik.sim.world.admission.RbacAuthorizer;
import io.kuik.sim.world.admission.SystemRbac;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OwnerReferencesPermissionEnforcement admission plugin, read from kubernetes/kubernetes {@code
 * plugin/pkg/admission/gc/gc_admission.go} ({@code gcPermissionsEnforcement.Validate}, {@code
 * isChangingOwnerReference}, {@code newBlockingOwnerDeletionRefs}, {@code
 * ownerRefToDeleteAttributeRecords}): off upstream, on in OpenShift.
 */
class OwnerReferencesPermissionEnforcementTest {

  private static final Identity BOB = Identity.person("bob");

  private final Fixture f = new Fixture().withCrds();
  private final ObjectNode mirror;

  OwnerReferencesPermissionEnforcementTest() {
    SystemRbac.objects().forEach(o -> f.api.create(ADMIN, o));
    f.namespace("team-a");
    mirror =
        f.api.create(
            ADMIN,
            Json.yaml(
                "apiVersion: kuik.enix.io/v1alpha1\nkind: ImageMirror\nmetadata: {name: prod}\n"
                    + "spec: {destination: {path: registry.example.com/m/}}"));
    f.api.setAuthorizer(new RbacAuthorizer(f.api.state()));
    grant("writer", "[''], resources: [secrets], verbs: [create, update, patch]");
  }

  private void grant(String name, String rule) {
    f.api.create(
        ADMIN,
        Json.yaml(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: "
                + name
                + "}\nrules:\n- {apiGroups: "
                + rule
                + "}"));
    f.api.create(
        ADMIN,
        Json.yaml(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: "
                + name
                + "}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "
                + name
                + "}\nsubjects: [{kind: User, name: bob}]"));
  }

  private ObjectNode owned(boolean block) {
    ObjectNode secret = Fixture.opaque("team-a", "pull", "k", "v");
    ObjectNode ref = Fixture.ownerRef(mirror);
    if (block) {
      ref.put("blockOwnerDeletion", true);
    }
    secret.withObjectProperty("metadata").putArray("ownerReferences").add(ref);
    return secret;
  }

  @Test
  void offUpstreamSettingAnOwnerReferenceNeedsNothingMore() {
    ObjectNode stored = f.api.create(BOB, owned(true));

    assertEquals(
        Meta.uid(mirror),
        stored.path("metadata").path("ownerReferences").path(0).path("uid").asString());
    assertTrue(
        stored
            .path("metadata")
            .path("ownerReferences")
            .path(0)
            .path("blockOwnerDeletion")
            .asBoolean());
  }

  @Test
  void onSettingAnOwnerReferenceNeedsDeleteOnTheObject() {
    f.api.setOwnerReferencesPermissionEnforcement(true);

    ApiException refused = assertThrows(ApiException.class, () -> f.api.create(BOB, owned(false)));

    assertEquals(403, refused.code());
    assertEquals(
        "secrets \"pull\" is forbidden: cannot set an ownerRef on a resource you can't delete: ,"
            + " <nil>",
        refused.getMessage());
    grant("deleter", "[''], resources: [secrets], verbs: [delete]");
    f.api.create(BOB, owned(false));
  }

  /**
   * Bob may update the Secret but not delete it: an update that keeps its owner references passes,
   * while the same update dropping them is refused for want of delete.
   */
  @Test
  void onAnUpdateThatKeepsTheOwnerReferencesNeedsNoDelete() {
    ObjectNode stored = f.api.create(ADMIN, owned(false));
    f.api.setOwnerReferencesPermissionEnforcement(true);
    stored.withObjectProperty("metadata").putObject("labels").put("team", "a");

    ObjectNode updated = f.api.update(BOB, stored.deepCopy());

    assertEquals("a", Meta.labels(updated).get("team"));
    assertEquals(
        stored.path("metadata").path("ownerReferences"),
        updated.path("metadata").path("ownerReferences"));
    assertNotEquals(Meta.resourceVersion(stored), Meta.resourceVersion(updated));
    updated.withObjectProperty("metadata").remove("ownerReferences");
    ApiException refused = assertThrows(ApiException.class, () -> f.api.update(BOB, updated));
    assertEquals(403, refused.code());
    assertEquals(Stage.ADMISSION_PLUGIN, refused.stage());
    assertTrue(
        refused.getMessage().contains("cannot set an ownerRef on a resource you can't delete"),
        refused.getMessage());
  }

  @Test
  void onBlockOwnerDeletionNeedsUpdateOnTheOwnersFinalizers() {
    f.api.setOwnerReferencesPermissionEnforcement(true);
    grant("deleter", "[''], resources: [secrets], verbs: [delete]");

    ApiException refused = assertThrows(ApiException.class, () -> f.api.create(BOB, owned(true)));

    assertEquals(
        "secrets \"pull\" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers"
            + " to a resource you can't set finalizers on: , <nil>",
        refused.getMessage());
    grant("finalizer", "[kuik.enix.io], resources: [imagemirrors/finalizers], verbs: [update]");
    ObjectNode stored = f.api.create(BOB, owned(true));

    ObjectNode other =
        f.api.create(
            ADMIN,
            Json.yaml(
                "apiVersion: kuik.enix.io/v1alpha1\nkind: ImageMirror\nmetadata: {name: other}\n"
                    + "spec: {destination: {path: registry.example.com/o/}}"));
    f.api.delete(ADMIN, ResourceType.CLUSTER_ROLE_BINDING, null, "finalizer");
    ((tools.jackson.databind.node.ArrayNode) stored.path("metadata").path("ownerReferences"))
        .add(Fixture.ownerRef(other));
    f.api.update(BOB, stored); // the reference that blocked already is not asked about again
  }
}
