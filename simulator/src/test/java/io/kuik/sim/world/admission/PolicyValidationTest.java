package io.kuik.sim.world.admission;

import static io.kuik.sim.world.Fixture.ADMIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.chart.ChartFiles;
import io.kuik.sim.chart.Release;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.Fixture;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * A ValidatingAdmissionPolicy is compiled when it is written, as kubernetes/kubernetes {@code
 * pkg/apis/admissionregistration/validation/validation.go} does ({@code
 * ValidateValidatingAdmissionPolicy}, {@code validateMatchCondition}, {@code validateVariable},
 * {@code validateValidation}): an expression that does not compile is 422, naming its field.
 */
class PolicyValidationTest {

  private final Fixture f = new Fixture();

  private static ObjectNode policy(String body) {
    return Json.yaml(
        """
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicy
        metadata: {name: p}
        spec:
          matchConstraints:
            resourceRules:
              - {apiGroups: [""], apiVersions: [v1], resources: [secrets], operations: [CREATE]}
        """
            + body.indent(2));
  }

  private ApiException refused(String body) {
    return assertThrows(ApiException.class, () -> f.api.create(ADMIN, policy(body)));
  }

  @Test
  void theChartsPolicyCompiles() {
    List<ObjectNode> files = ChartFiles.locate().load(ChartFiles.ADMISSION_POLICY, Release.DEFAULT);
    ObjectNode chartPolicy = files.get(0);

    assertEquals("ValidatingAdmissionPolicy", chartPolicy.path("kind").asString());
    assertEquals(List.of(), PolicyValidation.validate(chartPolicy).list());
    f.api.create(ADMIN, chartPolicy);
  }

  /** {@code body} holds the spec's lines, separated by {@code " ; "}. */
  @ParameterizedTest(name = "a policy whose {0} does not compile is refused naming {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "validation | spec.validations[0].expression | validations: [{expression: 'object.metadata.name =='}]",
        "variable | spec.variables[0].expression | variables: [{name: v, expression: 'object.(('}]"
            + " ; validations: [{expression: 'true'}]",
        "match condition | spec.matchConditions[0].expression | matchConditions: [{name: m,"
            + " expression: '1 +'}] ; validations: [{expression: 'true'}]",
        "messageExpression | spec.validations[0].messageExpression | validations: [{expression: 'true', messageExpression: \"'a' +\"}]",
      })
  void anExpressionThatDoesNotCompileIsRefusedNamingItsField(
      String what, String field, String body) {
    ApiException e = refused(body.replace(" ; ", "\n"));

    assertEquals(422, e.code());
    assertTrue(
        e.getMessage()
            .startsWith(
                "ValidatingAdmissionPolicy.admissionregistration.k8s.io \"p\" is invalid: "
                    + field
                    + ": Invalid value: \""),
        e.getMessage());
    assertTrue(e.getMessage().contains("compilation failed: ERROR: <input>:1:"), e.getMessage());
    assertTrue(
        f.api.find(ADMIN, ResourceType.VALIDATING_ADMISSION_POLICY, null, "p").isEmpty(),
        "nothing stored");
  }

  @Test
  void aMatchConditionCannotReadTheVariables() {
    ApiException e =
        refused(
            """
            matchConditions: [{name: m, expression: variables.v}]
            variables: [{name: v, expression: 'true'}]
            validations: [{expression: 'true'}]
            """);

    assertTrue(
        e.getMessage()
            .contains("spec.matchConditions[0].expression: Invalid value: \"variables.v\""),
        e.getMessage());
    assertTrue(e.getMessage().contains("undeclared reference to 'variables'"), e.getMessage());
  }

  @Test
  void aValidationMustBeABoolAndAMessageExpressionAString() {
    ApiException e = refused("validations: [{expression: \"'yes'\", messageExpression: '42'}]");

    assertEquals(
        "ValidatingAdmissionPolicy.admissionregistration.k8s.io \"p\" is invalid: ["
            + "spec.validations[0].expression: Invalid value: \"'yes'\": must evaluate to bool but"
            + " got string, spec.validations[0].messageExpression: Invalid value: \"42\": must"
            + " evaluate to string but got int]",
        e.getMessage());
  }

  @Test
  void aPolicyNeedsValidationsAndWellFormedNamesAndReasons() {
    ApiException e =
        refused(
            """
            failurePolicy: Sometimes
            variables: [{name: "not-an-identifier", expression: 'true'}]
            """);

    assertEquals(
        List.of(
            "spec.failurePolicy: Unsupported value: \"Sometimes\": supported values: \"Fail\","
                + " \"Ignore\"",
            "spec.variables[0].name: Invalid value: \"not-an-identifier\": name is not a valid CEL"
                + " identifier",
            "spec.validations: Required value: validations or auditAnnotations must contain at"
                + " least one item",
            "spec.auditAnnotations: Required value: validations or auditAnnotations must contain"
                + " at least one item"),
        e.causes());
    assertTrue(
        refused("validations: [{expression: 'false', reason: Teapot}]")
            .getMessage()
            .contains(
                "spec.validations[0].reason: Unsupported value: \"Teapot\": supported values:"
                    + " \"Forbidden\", \"Invalid\", \"RequestEntityTooLarge\", \"Unauthorized\""));
  }

  @Test
  void anUpdateThatBreaksAStoredPolicyIsRefusedToo() {
    ObjectNode stored = f.api.create(ADMIN, policy("validations: [{expression: 'true'}]"));
    ((ObjectNode) stored.path("spec").path("validations").get(0)).put("expression", "true &&");

    ApiException e = assertThrows(ApiException.class, () -> f.api.update(ADMIN, stored));

    assertEquals(422, e.code());
    assertTrue(e.getMessage().contains("spec.validations[0].expression"), e.getMessage());
  }
}
