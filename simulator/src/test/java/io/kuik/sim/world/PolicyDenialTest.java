package io.kuik.sim.world;

import static io.kuik.sim.world.Fixture.ADMIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.world.admission.PolicyAdmission;
import io.kuik.sim.world.object.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * A ValidatingAdmissionPolicy's denial as the API server sends it, read from kubernetes/apiserver
 * {@code pkg/admission/plugin/policy/validating/dispatcher.go} ({@code Dispatch}: the message
 * wrapped by {@code admission.NewForbidden}, the reason the validation names, {@code Invalid} when
 * it names none) and {@code policy_decision.go} ({@code reasonToCode}).
 */
class PolicyDenialTest {

  private final Fixture f = new Fixture();

  PolicyDenialTest() {
    f.namespace("team-a");
    f.api.setValidatingAdmission(new PolicyAdmission(f.api.state()));
  }

  private void policy(String reason) {
    f.api.create(
        ADMIN,
        Json.yaml(
            """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: no-secrets}
            spec:
              matchConstraints:
                resourceRules:
                  - {apiGroups: [""], apiVersions: [v1], resources: [secrets], operations: [CREATE]}
              validations:
                - expression: "false"
                  message: no Secret here
            """
                + (reason.isEmpty() ? "" : "      reason: " + reason + "\n")));
    f.api.create(
        ADMIN,
        Json.yaml(
            """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicyBinding
            metadata: {name: no-secrets-everywhere}
            spec: {policyName: no-secrets, validationActions: [Deny]}
            """));
  }

  @ParameterizedTest(name = "a validation with reason ''{0}'' is refused with {1} {2}")
  @CsvSource({
    "'', 422, Invalid",
    "Invalid, 422, Invalid",
    "Forbidden, 403, Forbidden",
    "Unauthorized, 401, Unauthorized",
    "RequestEntityTooLarge, 413, RequestEntityTooLarge",
  })
  void theCodeComesFromTheValidationsReason(String reason, int code, String status) {
    policy(reason);

    ApiException refused =
        assertThrows(
            ApiException.class, () -> f.api.create(ADMIN, Fixture.opaque("team-a", "s", "k", "v")));

    assertEquals(code, refused.code());
    assertEquals(status, refused.reason());
  }

  @Test
  void theMessageNamesTheResourceTheObjectThePolicyAndTheBinding() {
    policy("Forbidden");

    ApiException refused =
        assertThrows(
            ApiException.class,
            () -> f.api.create(ADMIN, Fixture.opaque("team-a", "pull", "k", "v")));

    assertEquals(
        "secrets \"pull\" is forbidden: ValidatingAdmissionPolicy 'no-secrets' with binding"
            + " 'no-secrets-everywhere' denied request: no Secret here",
        refused.getMessage());
  }

  /** The registry generates the name before validating admission sees the object (store.go). */
  @Test
  void anObjectWithAGenerateNameIsNamedByTheNameGeneratedForIt() {
    policy("");
    ObjectNode generated = Fixture.opaque("team-a", "x", "k", "v");
    ((ObjectNode) generated.get("metadata")).remove("name");
    ((ObjectNode) generated.get("metadata")).put("generateName", "pull-");

    ApiException refused = assertThrows(ApiException.class, () -> f.api.create(ADMIN, generated));

    assertTrue(
        refused.getMessage().matches("secrets \"pull-[a-z0-9]{5}\" is forbidden: .*"),
        refused.getMessage());
  }
}
