package io.kuik.sim.world;

import static io.kuik.sim.world.Fixture.ADMIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.chart.ChartFiles;
import io.kuik.sim.chart.Release;
import io.kuik.sim.world.admission.RbacAuthorizer;
import io.kuik.sim.world.admission.SystemRbac;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Kinds;
import io.kuik.sim.world.object.Meta;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The status subresource of a custom resource, as kubernetes/apiextensions-apiserver serves it when
 * the CRD declares {@code subresources.status} ({@code pkg/registry/customresource}): create and
 * update of the main resource keep status as stored ({@code strategy.go}, {@code PrepareForCreate}
 * "create cannot set status", {@code PrepareForUpdate} "update is not allowed to set status"); a
 * write to {@code /status} changes status alone ({@code status_strategy.go}, {@code
 * PrepareForUpdate} and {@code GetResetFields}), never creates ({@code etcd.go}, {@code
 * StatusREST.Update} with forceAllowCreate false), does not bump the generation, and is authorized
 * as {@code <resource>/status} ({@code apiserver pkg/endpoints/request/requestinfo.go}).
 */
class StatusSubresourceTest {

  private static final Release RELEASE = Release.DEFAULT;
  private static final Identity SYNCER =
      Identity.serviceAccount(RELEASE.namespace(), RELEASE.syncerServiceAccount());
  private static final String MANAGER = "kuik-secret-syncer-status";

  private final Fixture f = new Fixture().withCrds();

  private static ObjectNode alternative(String extra) {
    return Json.yaml(
        "apiVersion: kuik.enix.io/v1alpha1\nkind: ImageAlternative\nmetadata: {name: acme}\n"
            + "spec:\n  alternatives:\n  - repository: quay.io/acme/foo\n"
            + extra);
  }

  private static ObjectNode status(String name, int namespaces) {
    return Json.yaml(
        "apiVersion: kuik.enix.io/v1alpha1\nkind: ImageAlternative\nmetadata: {name: "
            + name
            + "}\nstatus:\n  observedGeneration: 1\n  secretNamespaces: "
            + namespaces
            + "\n  conditions:\n  - {type: Valid, status: 'True', reason: Valid,"
            + " message: ok, lastTransitionTime: '2026-01-01T00:00:00Z'}\n");
  }

  private ObjectNode stored() {
    return f.get(ResourceType.IMAGE_ALTERNATIVE, null, "acme");
  }

  @Test
  void theRoutingKindsHaveAStatusSubresourceExactlyWhenTheirCrdDeclaresOne() {
    for (ObjectNode crd : ChartFiles.locate().crds()) {
      String kind = Json.text(crd, "spec", "names", "kind");
      ResourceType type = ResourceType.ofKind("kuik.enix.io/v1alpha1", kind).orElseThrow();
      boolean declared =
          crd.path("spec").path("versions").get(0).path("subresources").has("status");
      assertEquals(declared, Kinds.hasStatusSubresource(type), kind);
    }
  }

  @Test
  void aCreateCannotSetStatus() {
    ObjectNode created =
        f.api.create(ADMIN, alternative("status: {secretNamespaces: 7, observedGeneration: 1}\n"));

    assertFalse(created.has("status"), created.toString());
  }

  @Test
  void anApplyToStatusChangesOnlyStatusAndKeepsTheGeneration() {
    f.api.create(ADMIN, alternative(""));
    ObjectNode body = status("acme", 3);
    body.putObject("spec").putArray("alternatives").addObject().put("repository", "x.io/evil");
    Meta.metadata(body).putObject("labels").put("sneaky", "yes");

    ObjectNode after = f.api.applyStatus(ADMIN, body, MANAGER, true);

    assertEquals(3, after.path("status").path("secretNamespaces").asInt());
    assertEquals(
        "quay.io/acme/foo",
        after.path("spec").path("alternatives").get(0).path("repository").asString());
    assertFalse(after.path("metadata").has("labels"));
    assertEquals(1, after.path("metadata").path("generation").asInt());
    assertTrue(
        after.path("metadata").path("managedFields").toString().contains(MANAGER),
        "the status manager owns its fields");
  }

  @Test
  void anApplyToTheMainResourceIgnoresStatus() {
    f.api.create(ADMIN, alternative(""));
    f.api.applyStatus(ADMIN, status("acme", 3), MANAGER, true);
    ObjectNode apply = alternative("status: {secretNamespaces: 99}\n");

    f.api.apply(ADMIN, apply, "kubectl", true);
    f.api.update(ADMIN, withStatus(stored(), 42));

    assertEquals(3, stored().path("status").path("secretNamespaces").asInt());
  }

  private static ObjectNode withStatus(ObjectNode object, int namespaces) {
    ObjectNode copy = object.deepCopy();
    ((ObjectNode) copy.path("status")).put("secretNamespaces", namespaces);
    return copy;
  }

  @Test
  void anIdenticalStatusApplyIsANoOp() {
    f.api.create(ADMIN, alternative(""));
    String rv = Meta.resourceVersion(f.api.applyStatus(ADMIN, status("acme", 3), MANAGER, true));

    String again = Meta.resourceVersion(f.api.applyStatus(ADMIN, status("acme", 3), MANAGER, true));

    assertEquals(rv, again);
  }

  @Test
  void aStatusApplyToAMissingObjectIsNotFoundAndCreatesNothing() {
    ApiException e =
        assertThrows(
            ApiException.class, () -> f.api.applyStatus(ADMIN, status("gone", 1), MANAGER, true));

    assertEquals(404, e.code());
    assertTrue(
        f.api.find(ADMIN, ResourceType.IMAGE_ALTERNATIVE, null, "gone").isEmpty(), "not created");
  }

  @Test
  void theSyncerMayPatchTheStatusButNotTheResourceUnderTheChartsRbac() {
    f.api.create(ADMIN, alternative(""));
    f.namespace(RELEASE.namespace());
    SystemRbac.objects().forEach(o -> f.api.create(ADMIN, o));
    ChartFiles.locate().load(ChartFiles.SYNCER_RBAC, RELEASE).forEach(o -> f.api.create(ADMIN, o));
    f.api.setAuthorizer(new RbacAuthorizer(f.api.state()));

    f.api.applyStatus(SYNCER, status("acme", 2), MANAGER, true);
    ApiException refused =
        assertThrows(ApiException.class, () -> f.api.apply(SYNCER, alternative(""), "kuik", true));

    assertEquals(2, stored().path("status").path("secretNamespaces").asInt());
    assertEquals(403, refused.code());
    assertTrue(
        refused.getMessage().contains("cannot patch resource \"imagealternatives\""),
        refused.getMessage());
  }

  @Test
  void aStatusOfTheWrongShapeIsRefusedByTheStatusSchema() {
    f.api.create(ADMIN, alternative(""));
    ObjectNode body = status("acme", 1);
    ((ObjectNode) body.path("status")).put("secretNamespaces", "many");

    ApiException e =
        assertThrows(ApiException.class, () -> f.api.applyStatus(ADMIN, body, MANAGER, true));

    assertEquals(422, e.code());
    assertTrue(e.getMessage().contains("status.secretNamespaces"), e.getMessage());
  }

  @Test
  void aResourceStoredWithASpecItsCrdRefusesStillGetsItsStatus() {
    ObjectNode crd =
        f.get(ResourceType.CUSTOM_RESOURCE_DEFINITION, null, "imagealternatives.kuik.enix.io");
    ObjectNode schemaless = crd.deepCopy();
    ((ObjectNode) schemaless.path("spec").path("versions").get(0))
        .putObject("schema")
        .set(
            "openAPIV3Schema",
            Json.yaml("{type: object, x-kubernetes-preserve-unknown-fields: true}"));
    f.api.update(ADMIN, schemaless);
    f.api.create(
        ADMIN,
        Json.yaml(
            "apiVersion: kuik.enix.io/v1alpha1\nkind: ImageAlternative\nmetadata: {name: acme}\n"
                + "spec: {alternatives: oops}\n"));
    ObjectNode live =
        f.get(ResourceType.CUSTOM_RESOURCE_DEFINITION, null, "imagealternatives.kuik.enix.io");
    live.set("spec", crd.get("spec"));
    f.api.update(ADMIN, live);

    f.api.applyStatus(ADMIN, status("acme", 0), MANAGER, true);

    assertEquals(
        "Valid", stored().path("status").path("conditions").get(0).path("type").asString());
  }
}
