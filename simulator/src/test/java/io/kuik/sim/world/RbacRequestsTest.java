package io.kuik.sim.world;

import static io.kuik.sim.world.Fixture.ADMIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.chart.ChartFiles;
import io.kuik.sim.chart.Release;
import io.kuik.sim.world.admission.RbacAuthorizer;
import io.kuik.sim.world.admission.SystemRbac;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * Which RBAC questions the API server asks for each write, read from kubernetes/apiserver: a POST
 * carries no name ({@code pkg/endpoints/request/requestinfo.go}, {@code
 * RequestInfoFactory.NewRequestInfo}: the name comes from the URL path only); a server-side apply
 * is a patch, and one that creates is asked {@code create} too, with the URL's name ({@code
 * pkg/endpoints/handlers/patch.go}, {@code PatchResource}: {@code createAuthorizerAttributes}
 * wrapped around the create validation by {@code withAuthorization}).
 */
class RbacRequestsTest {

  private static final Identity BOB = Identity.person("bob");

  private final Fixture f = new Fixture();

  RbacRequestsTest() {
    SystemRbac.objects().forEach(o -> f.api.create(ADMIN, o));
    f.namespace("team-a");
    f.api.setAuthorizer(new RbacAuthorizer(f.api.state()));
  }

  private void grantBob(String verbs, String resourceNames) {
    f.api.create(
        ADMIN,
        Json.yaml(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\n"
                + "metadata: {name: bob, namespace: team-a}\n"
                + "rules:\n- {apiGroups: [''], resources: [secrets], verbs: "
                + verbs
                + (resourceNames == null ? "" : ", resourceNames: " + resourceNames)
                + "}"));
    f.api.create(
        ADMIN,
        Json.yaml(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\n"
                + "metadata: {name: bob, namespace: team-a}\n"
                + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: bob}\n"
                + "subjects: [{kind: User, name: bob}]"));
  }

  private static ObjectNode secret(String name) {
    return Fixture.opaque("team-a", name, "k", "v");
  }

  private ObjectNode apply(String name) {
    return f.api.apply(BOB, secret(name), "bob", true);
  }

  @Test
  void aPostThatCreatesIsAuthorizedWithoutANameSoResourceNamesNeverGrantIt() {
    grantBob("[create]", "[pull]");

    ApiException refused =
        assertThrows(ApiException.class, () -> f.api.create(BOB, secret("pull")));

    assertEquals(403, refused.code());
    assertEquals(
        "secrets is forbidden: User \"bob\" cannot create resource \"secrets\" in API group \"\""
            + " in the namespace \"team-a\"",
        refused.getMessage());
  }

  @Test
  void aServerSideApplyThatCreatesNeedsCreateAsWellAsPatch() {
    grantBob("[patch]", null);

    ApiException refused = assertThrows(ApiException.class, () -> apply("pull"));

    assertEquals(403, refused.code());
    assertEquals(
        "secrets \"pull\" is forbidden: User \"bob\" cannot create resource \"secrets\" in API"
            + " group \"\" in the namespace \"team-a\"",
        refused.getMessage());
    assertTrue(f.api.find(ADMIN, ResourceType.SECRET, "team-a", "pull").isEmpty());
  }

  @Test
  void aServerSideApplyOfAnExistingObjectNeedsPatchOnly() {
    grantBob("[patch]", null);
    f.api.create(ADMIN, secret("pull"));

    ObjectNode applied = apply("pull");

    assertEquals("v", Fixture.decoded(applied, "k"));
  }

  @Test
  void aServerSideApplyIsAskedCreateWithTheUrlsNameSoResourceNamesCanGrantIt() {
    grantBob("[create, patch]", "[pull]");

    apply("pull");
    ApiException other = assertThrows(ApiException.class, () -> apply("other"));

    assertTrue(f.api.find(ADMIN, ResourceType.SECRET, "team-a", "pull").isPresent());
    assertEquals(
        "secrets \"other\" is forbidden: User \"bob\" cannot patch resource \"secrets\" in API"
            + " group \"\" in the namespace \"team-a\"",
        other.getMessage());
  }

  @Test
  void theChartsRbacLetsTheSyncersApplyCreateAndThenPatchASecretInAnyNamespace() {
    Release release = Release.DEFAULT;
    f.namespace(release.namespace());
    ChartFiles.locate().load(ChartFiles.SYNCER_RBAC, release).forEach(o -> f.api.create(ADMIN, o));
    Identity syncer = Identity.serviceAccount(release.namespace(), release.syncerServiceAccount());
    ObjectNode secret = secret("kuik-inject-imagemirror-prod");

    ObjectNode created = f.api.apply(syncer, secret, "kuik-secret-syncer", true);
    ((ObjectNode) secret.get("data")).put("k", Fixture.b64("w"));
    ObjectNode patched = f.api.apply(syncer, secret, "kuik-secret-syncer", true);

    assertEquals("v", Fixture.decoded(created, "k"));
    assertEquals("w", Fixture.decoded(patched, "k"));
    assertEquals(
        403,
        assertThrows(
                ApiException.class,
                () -> f.api.delete(syncer, ResourceType.SECRET, "team-a", Meta.name(created)))
            .code(),
        "and no delete");
  }

  @Test
  void theCreateCheckOfAnApplyComesAfterValidationAsTheRegistryCallsIt() {
    grantBob("[patch]", null);
    ObjectNode invalid = secret("pull");
    invalid.put("type", "kubernetes.io/dockerconfigjson"); // no .dockerconfigjson key

    ApiException refused =
        assertThrows(ApiException.class, () -> f.api.apply(BOB, invalid, "bob", true));

    assertEquals(422, refused.code(), "BeforeCreate validates before createValidation asks RBAC");
  }
}
