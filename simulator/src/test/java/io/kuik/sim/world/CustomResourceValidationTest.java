package io.kuik.sim.world;

import static io.kuik.sim.world.Fixture.ADMIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * ImageAlternatives and ImageMirrors validated by the chart's own CRDs (chart/files/crds) as
 * kubernetes/apiextensions-apiserver validates custom resources: served only while their CRD is
 * stored ({@code pkg/apiserver/customresource_handler.go}); pruned and defaulted ({@code
 * pkg/apiserver/schema/pruning/algorithm.go} {@code Prune}, {@code defaulting/algorithm.go} {@code
 * Default}); the structural schema ({@code pkg/apiserver/validation/validation.go}, {@code
 * kubeOpenAPIResultToFieldErrors}), then the CEL rules ({@code
 * pkg/apiserver/schema/cel/validation.go}, {@code validateExpressions}) unless a blocking error
 * stopped them ({@code pkg/registry/customresource/strategy.go}, {@code hasBlockingErr}).
 */
class CustomResourceValidationTest {

  private static final String INVALID = "ImageAlternative.kuik.enix.io \"acme\" is invalid: ";
  private static final String BLOCKED =
      "<nil>: Invalid value: \"null\": some validation rules were not checked because the object"
          + " was invalid; correct the existing errors to complete validation";

  private final Fixture f = new Fixture().withCrds();

  private static ObjectNode alternative(String spec) {
    return Json.yaml(
        "apiVersion: kuik.enix.io/v1alpha1\nkind: ImageAlternative\nmetadata: {name: acme}\n"
            + spec);
  }

  private static final String GOOD =
      "spec:\n  alternatives:\n  - repository: quay.io/acme/foo\n"
          + "    auth: {secretRef: {name: acme-pull}}\n";

  private ApiException refused(String spec) {
    ApiException e = assertThrows(ApiException.class, () -> f.api.create(ADMIN, alternative(spec)));
    assertEquals(422, e.code(), e.getMessage());
    return e;
  }

  @Test
  void aKindIsServedOnlyWhileItsCrdIsStored() {
    Fixture bare = new Fixture();

    ApiException e =
        assertThrows(ApiException.class, () -> bare.api.create(ADMIN, alternative(GOOD)));

    assertEquals(404, e.code());
    assertEquals("the server could not find the requested resource", e.getMessage());
    bare.withCrds().api.create(ADMIN, alternative(GOOD));
  }

  @Test
  void unknownFieldsArePrunedAndDefaultsFilled() {
    ObjectNode stored =
        f.api.create(
            ADMIN,
            alternative(
                "spec:\n  colour: blue\n  alternatives:\n  - repository: quay.io/acme/foo\n"
                    + "    mirror: yes\n    auth: {secretRef: {name: acme-pull, key: x}}\n"));

    assertFalse(stored.path("spec").has("colour"));
    assertFalse(stored.path("spec").path("alternatives").get(0).has("mirror"));
    assertFalse(
        stored.path("spec").path("alternatives").get(0).path("auth").path("secretRef").has("key"));
    assertEquals("OnFailure", stored.path("spec").path("rewritePolicy").asString());
  }

  @Test
  void aValueOutsideTheEnumIsRefusedAndStopsTheRules() {
    ApiException e =
        refused(
            "spec:\n  rewritePolicy: Sometimes\n  alternatives:\n"
                + "  - repository: quay.io/acme/foo:1.0\n    auth: {secretRef: {name: acme-pull}}\n");

    assertEquals(
        List.of(
            "spec.rewritePolicy: Unsupported value: \"Sometimes\": supported values: \"Always\","
                + " \"None\", \"OnFailure\"",
            BLOCKED),
        e.causes());
  }

  @Test
  void aMissingRequiredFieldAndAWrongTypeAreNamed() {
    assertEquals(
        List.of("spec.alternatives: Required value", BLOCKED),
        refused("spec: {rewritePolicy: Always}\n").causes());
    assertEquals(
        List.of(
            "spec.alternatives: Invalid value: \"quay.io/acme\": spec.alternatives in body must be"
                + " of type array: \"string\"",
            BLOCKED),
        refused("spec: {alternatives: quay.io/acme}\n").causes());
  }

  @Test
  void lengthsAndItemCountsAreBounded() {
    String longPath = "quay.io/" + "a".repeat(248);
    assertEquals(
        List.of("spec.alternatives[0].repository: Too long: must have at most 255 bytes", BLOCKED),
        refused(
                "spec:\n  alternatives:\n  - repository: "
                    + longPath
                    + "\n    auth: {secretRef: {name: acme-pull}}\n")
            .causes());
    StringBuilder many = new StringBuilder("spec:\n  alternatives:\n");
    for (int i = 0; i < 65; i++) {
      many.append("  - {repository: quay.io/acme/r").append(i).append("}\n");
    }
    assertEquals(
        List.of("spec.alternatives: Too many: 65: must have at most 64 items", BLOCKED),
        refused(many.toString()).causes());
    assertEquals(
        List.of(
            "spec.alternatives: Invalid value: 0: spec.alternatives in body should have at least 1"
                + " items"),
        refused("spec: {alternatives: []}\n").causes());
  }

  @Test
  void aRuleWithAFieldPathNamesTheFieldAndSaysItsMessage() {
    ApiException e =
        refused(
            "spec:\n  alternatives:\n  - repository: quay.io/acme/foo:1.0\n"
                + "    auth: {secretRef: {name: acme-pull}}\n");

    assertEquals(
        INVALID
            + "spec.alternatives[0].repository: Invalid value: must not have a tag or digest:"
            + " write the repository alone, e.g. quay.io/acme/foo",
        e.getMessage());
  }

  @Test
  void aRuleOnTheRootAndRulesOnNestedObjectsAllReportANodesOwnBeforeItsChildrens() {
    assertEquals(List.of("<nil>: Invalid value: spec is required"), refused("").causes());
    assertEquals(
        List.of(
            "spec: Invalid value: rewritePolicy None is only valid on an ImageMirror: use OnFailure"
                + " or Always",
            "spec.alternatives[0].auth: Invalid value: auth must set exactly one of secretRef or"
                + " provider"),
        refused(
                "spec:\n  rewritePolicy: None\n  alternatives:\n  - repository: quay.io/acme/foo\n"
                    + "    auth: {}\n")
            .causes());
  }

  @Test
  void anUpdateIsValidatedToo() {
    ObjectNode stored = f.api.create(ADMIN, alternative(GOOD));
    ((ObjectNode) stored.path("spec").path("alternatives").get(0))
        .put("repository", "quay.io/acme/foo@sha256:" + "0".repeat(64));

    ApiException e = assertThrows(ApiException.class, () -> f.api.update(ADMIN, stored));

    assertEquals(422, e.code());
    assertTrue(e.getMessage().contains("must not have a tag or digest"), e.getMessage());
  }

  /** A CRD of the test's own, on ImageMirror, to show the rule features the chart's do not use. */
  private void mirrorCrdWithRules(String rules) {
    ObjectNode crd =
        f.get(ResourceType.CUSTOM_RESOURCE_DEFINITION, null, "imagemirrors.kuik.enix.io");
    ObjectNode destination =
        (ObjectNode)
            crd.path("spec")
                .path("versions")
                .get(0)
                .path("schema")
                .path("openAPIV3Schema")
                .path("properties")
                .path("spec")
                .path("properties")
                .path("destination");
    destination.set("x-kubernetes-validations", Json.yaml("rules:\n" + rules).get("rules"));
    f.api.update(ADMIN, crd);
  }

  private static ObjectNode mirror(String path) {
    return Json.yaml(
        "apiVersion: kuik.enix.io/v1alpha1\nkind: ImageMirror\nmetadata: {name: m}\n"
            + "spec: {destination: {path: '"
            + path
            + "'}}");
  }

  @Test
  void aTransitionRuleComparesWithOldSelfOnUpdatesOnly() {
    mirrorCrdWithRules(
        "- {rule: 'self.path == oldSelf.path', message: path is immutable,"
            + " reason: FieldValueForbidden, fieldPath: .path}\n");

    ObjectNode stored = f.api.create(ADMIN, mirror("registry.example.com/a/"));
    ObjectNode moved = stored.deepCopy();
    ((ObjectNode) moved.path("spec").path("destination")).put("path", "registry.example.com/b/");
    ApiException e = assertThrows(ApiException.class, () -> f.api.update(ADMIN, moved));

    assertEquals(
        "ImageMirror.kuik.enix.io \"m\" is invalid: spec.destination.path: Forbidden: path is"
            + " immutable",
        e.getMessage());
    stored.withObjectProperty("metadata").putObject("labels").put("team", "a");
    f.api.update(ADMIN, stored);
  }

  @Test
  void aMessageExpressionGivesTheDetailWhenItEvaluatesToOneLine() {
    mirrorCrdWithRules(
        "- {rule: \"!self.path.startsWith('docker.io')\", message: static,"
            + " messageExpression: \"'no mirror on ' + self.path\"}\n");

    ApiException e =
        assertThrows(ApiException.class, () -> f.api.create(ADMIN, mirror("docker.io/mirror/")));

    assertEquals(
        List.of("spec.destination: Invalid value: no mirror on docker.io/mirror/"), e.causes());
  }

  @Test
  void aCrdWhoseRuleDoesNotCompileIsRefused() {
    ObjectNode crd =
        f.get(ResourceType.CUSTOM_RESOURCE_DEFINITION, null, "imagemirrors.kuik.enix.io");
    ((ObjectNode) crd.path("spec").path("versions").get(0).path("schema").path("openAPIV3Schema"))
        .set("x-kubernetes-validations", Json.yaml("r: [{rule: 'has(self.spec'}]").get("r"));

    ApiException e = assertThrows(ApiException.class, () -> f.api.update(ADMIN, crd));

    assertEquals(422, e.code());
    assertTrue(
        e.getMessage()
            .contains(
                "spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid"
                    + " value: \"has(self.spec\": compilation failed: ERROR: <input>:1:"),
        e.getMessage());
  }

  @Test
  void anObjectStoredUnderALooserSchemaStaysUntilItIsWrittenAgain() {
    String name = "imagealternatives.kuik.enix.io";
    ObjectNode loose = f.get(ResourceType.CUSTOM_RESOURCE_DEFINITION, null, name);
    JsonNode chartSpec = loose.get("spec").deepCopy();
    ((ObjectNode) loose.path("spec").path("versions").get(0).path("schema"))
        .set(
            "openAPIV3Schema",
            Json.yaml("{type: object, x-kubernetes-preserve-unknown-fields: true}"));
    f.api.update(ADMIN, loose);
    ObjectNode broken =
        f.api.create(ADMIN, alternative("spec:\n  alternatives:\n  - repository: quay.io/a/b:1\n"));
    ObjectNode strict = f.get(ResourceType.CUSTOM_RESOURCE_DEFINITION, null, name);
    strict.set("spec", chartSpec);
    f.api.update(ADMIN, strict);

    assertTrue(f.api.find(ADMIN, ResourceType.IMAGE_ALTERNATIVE, null, "acme").isPresent());
    broken.withObjectProperty("metadata").putObject("labels").put("team", "a");
    ApiException e = assertThrows(ApiException.class, () -> f.api.update(ADMIN, broken));
    assertTrue(e.getMessage().contains("must not have a tag or digest"), e.getMessage());
  }
}
