package io.kuik.sim.world.admission;

import static io.kuik.sim.world.admission.AdmissionRequests.create;
import static io.kuik.sim.world.admission.AdmissionRequests.delete;
import static io.kuik.sim.world.admission.AdmissionRequests.update;
import static io.kuik.sim.world.admission.AdmissionRequests.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.world.admission.PolicyDecision.Outcome;
import io.kuik.sim.world.api.AdmissionRequest;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.api.ValidatingAdmission.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The API server's evaluation of ValidatingAdmissionPolicies, on small policies written for each
 * rule (not the chart's, which {@link PullSecretPolicyTableTest} covers).
 */
class PolicyAdmissionTest {

  private static final Identity ALICE = Identity.person("alice", "devs");

  private final InMemoryClusterState state = new InMemoryClusterState();
  private final PolicyAdmission admission = new PolicyAdmission(state);

  /** A policy on Secret creates and updates named "p", bound by "p-binding" with Deny. */
  private void policy(String specBody) {
    policy("Fail", specBody);
  }

  private void policy(String failurePolicy, String specBody) {
    state.putYaml(
        """
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicy
        metadata: {name: p}
        spec:
          failurePolicy: %s
          matchConstraints:
            resourceRules:
              - {apiGroups: [""], apiVersions: [v1], resources: [secrets], operations: [CREATE, UPDATE]}
        %s
        """
            .formatted(failurePolicy, specBody.indent(2)));
    binding("p-binding", "validationActions: [Deny]");
  }

  private void binding(String name, String specBody) {
    state.putYaml(
        """
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicyBinding
        metadata: {name: %s}
        spec:
          policyName: p
        %s
        """
            .formatted(name, specBody.indent(2)));
  }

  private static ObjectNode secret(String namespace, String name, String labels) {
    return yaml(
        "apiVersion: v1\nkind: Secret\ntype: Opaque\nmetadata: {name: "
            + name
            + ", namespace: "
            + namespace
            + ", labels: {"
            + labels
            + "}}\ndata: {k: dg==}\n");
  }

  private static final ObjectNode LABELLED = secret("team-a", "s", "team: a");
  private static final ObjectNode UNLABELLED = secret("team-a", "s", "");

  private Verdict verdict(AdmissionRequest request) {
    return admission.validate(request);
  }

  private PolicyDecision onlyDecision(AdmissionRequest request) {
    List<PolicyDecision> decisions = admission.decisions(request);
    assertEquals(1, decisions.size(), decisions::toString);
    return decisions.get(0);
  }

  private static final String NEEDS_TEAM =
      """
      validations:
        - expression: "'team' in object.metadata.labels"
      """;

  @Test
  void admitsWhenEveryValidationHolds() {
    policy(NEEDS_TEAM);

    assertTrue(verdict(create(ALICE, LABELLED)).admitted());
    assertEquals(Outcome.PASSED, onlyDecision(create(ALICE, LABELLED)).outcome());
  }

  @Test
  void aFalseValidationRefusesWithTheDefaultMessageNamingTheExpression() {
    policy(NEEDS_TEAM);

    Verdict verdict = verdict(create(ALICE, UNLABELLED));

    assertFalse(verdict.admitted());
    assertEquals(
        "ValidatingAdmissionPolicy 'p' with binding 'p-binding' denied request: failed expression:"
            + " 'team' in object.metadata.labels",
        verdict.message());
  }

  @Test
  void theStaticMessageReplacesTheDefault() {
    policy(
        """
        validations:
          - expression: "'team' in object.metadata.labels"
            message: every Secret needs a team label
        """);

    assertEquals(
        "ValidatingAdmissionPolicy 'p' with binding 'p-binding' denied request: every Secret needs"
            + " a team label",
        verdict(create(ALICE, UNLABELLED)).message());
  }

  @Test
  void theMessageExpressionGivesTheMessage() {
    policy(
        """
        validations:
          - expression: "'team' in object.metadata.labels"
            message: static
            messageExpression: "object.metadata.name + ' in ' + request.namespace + ' needs a team'"
        """);

    assertEquals(
        "ValidatingAdmissionPolicy 'p' with binding 'p-binding' denied request: s in team-a needs a"
            + " team",
        verdict(create(ALICE, UNLABELLED)).message());
  }

  @Test
  void aFailingOrEmptyMessageExpressionFallsBackToTheMessage() {
    policy(
        """
        validations:
          - expression: "'team' in object.metadata.labels"
            message: static one
            messageExpression: "object.metadata.nope"
          - expression: "false"
            message: static two
            messageExpression: "''"
        """);
    var withTeam = secret("team-a", "s", "team: a");

    assertTrue(verdict(create(ALICE, UNLABELLED)).message().endsWith("denied request: static one"));
    assertTrue(verdict(create(ALICE, withTeam)).message().endsWith("denied request: static two"));
  }

  @Test
  void theFirstFalseValidationInOrderGivesTheMessage() {
    policy(
        """
        validations:
          - expression: "true"
          - expression: "false"
            message: second
          - expression: "false"
            message: third
        """);

    assertTrue(verdict(create(ALICE, LABELLED)).message().endsWith("denied request: second"));
  }

  @Test
  void theReasonIsInvalidUnlessTheValidationNamesOne() {
    policy(
        """
        validations:
          - expression: "'team' in object.metadata.labels"
          - expression: "object.type == 'kubernetes.io/dockerconfigjson'"
            reason: Forbidden
        """);

    assertEquals("Invalid", onlyDecision(create(ALICE, UNLABELLED)).reason());
    assertEquals("Forbidden", onlyDecision(create(ALICE, LABELLED)).reason());
  }

  @Test
  void aFalseMatchConditionSkipsThePolicy() {
    policy(
        """
        matchConditions:
          - {name: only-team-a, expression: "request.namespace == 'team-a'"}
        validations:
          - expression: "false"
        """);

    assertTrue(verdict(create(ALICE, secret("team-b", "s", ""))).admitted());
    assertEquals(Outcome.SKIPPED, onlyDecision(create(ALICE, secret("team-b", "s", ""))).outcome());
    assertFalse(verdict(create(ALICE, secret("team-a", "s", ""))).admitted());
  }

  @Test
  void aMatchConditionErrorRefusesUnderFail() {
    policy(
        "Fail",
        """
        matchConditions:
          - {name: broken, expression: "object.metadata.nope == 'x'"}
        validations:
          - expression: "true"
        """);

    Verdict verdict = verdict(create(ALICE, LABELLED));

    assertFalse(verdict.admitted());
    assertTrue(
        verdict
            .message()
            .startsWith(
                "ValidatingAdmissionPolicy 'p' with binding 'p-binding' denied request:"
                    + " expression 'object.metadata.nope == 'x'' resulted in error:"),
        verdict.message());
  }

  @Test
  void aMatchConditionErrorAdmitsUnderIgnore() {
    policy(
        "Ignore",
        """
        matchConditions:
          - {name: broken, expression: "object.metadata.nope == 'x'"}
        validations:
          - expression: "false"
        """);

    assertTrue(verdict(create(ALICE, LABELLED)).admitted());
    assertEquals(Outcome.ERROR_IGNORED, onlyDecision(create(ALICE, LABELLED)).outcome());
  }

  @Test
  void anyFalseMatchConditionSkipsEvenWhenAnotherOneFails() {
    policy(
        "Fail",
        """
        matchConditions:
          - {name: broken, expression: "object.metadata.nope == 'x'"}
          - {name: never, expression: "false"}
        validations:
          - expression: "false"
        """);

    assertTrue(verdict(create(ALICE, LABELLED)).admitted());
  }

  @Test
  void aValidationErrorRefusesUnderFail() {
    policy("Fail", "validations:\n  - expression: \"object.spec.replicas > 1\"\n");

    Verdict verdict = verdict(create(ALICE, LABELLED));

    assertFalse(verdict.admitted());
    assertTrue(
        verdict.message().contains("denied request: expression 'object.spec.replicas > 1'"),
        verdict.message());
  }

  @Test
  void aValidationErrorIsLetThroughUnderIgnoreWhileOtherValidationsStillApply() {
    policy(
        "Ignore",
        """
        validations:
          - expression: "object.spec.replicas > 1"
          - expression: "'team' in object.metadata.labels"
        """);

    assertTrue(verdict(create(ALICE, LABELLED)).admitted());
    assertFalse(verdict(create(ALICE, UNLABELLED)).admitted());
  }

  @Test
  void anExpressionThatDoesNotCompileIsDecidedByTheFailurePolicy() {
    policy("Fail", "validations:\n  - expression: \"object.metadata.name ==\"\n");

    Verdict verdict = verdict(create(ALICE, LABELLED));

    assertFalse(verdict.admitted());
    assertTrue(verdict.message().contains("compilation failed"), verdict.message());
  }

  @Test
  void aValidationThatIsNotABooleanIsAnError() {
    policy("Fail", "validations:\n  - expression: \"object.metadata.name\"\n");

    assertTrue(
        verdict(create(ALICE, LABELLED)).message().contains("must evaluate to bool"),
        "a string is not a verdict");
  }

  @Test
  void variablesAreReadAsVariablesDotNameAndSeeTheOnesBefore() {
    policy(
        """
        variables:
          - {name: team, expression: "has(object.metadata.labels.team) ? object.metadata.labels.team : ''"}
          - {name: teamNamespace, expression: "'team-' + variables.team"}
        validations:
          - expression: "request.namespace == variables.teamNamespace"
            messageExpression: "'team ' + variables.team + ' writes in ' + variables.teamNamespace"
        """);

    assertTrue(verdict(create(ALICE, secret("team-a", "s", "team: a"))).admitted());
    assertTrue(
        verdict(create(ALICE, secret("team-a", "s", "team: b")))
            .message()
            .endsWith("denied request: team b writes in team-b"));
  }

  @Test
  void aVariableIsEvaluatedOnlyWhenAnExpressionReadsIt() {
    policy(
        """
        variables:
          - {name: broken, expression: "object.spec.nope"}
          - {name: team, expression: "'team' in object.metadata.labels"}
        validations:
          - expression: "variables.team || variables.broken == 1"
        """);

    assertTrue(verdict(create(ALICE, LABELLED)).admitted(), "broken is never read");
    assertTrue(
        verdict(create(ALICE, UNLABELLED))
            .message()
            .contains("denied request: expression 'variables.team ||"),
        "broken is read, and its error is the expression's");
  }

  @Test
  void aVariableCannotReadALaterOne() {
    policy(
        """
        variables:
          - {name: first, expression: "variables.second"}
          - {name: second, expression: "true"}
        validations:
          - expression: "variables.first"
        """);

    assertFalse(verdict(create(ALICE, LABELLED)).admitted());
    assertTrue(
        verdict(create(ALICE, LABELLED)).message().contains("resulted in error"),
        "an unknown variable is an error, not a cycle");
  }

  @Test
  void matchConditionsCannotReadVariables() {
    policy(
        """
        matchConditions:
          - {name: uses-variables, expression: "variables.x"}
        variables:
          - {name: x, expression: "true"}
        validations:
          - expression: "false"
        """);

    assertTrue(
        verdict(create(ALICE, LABELLED))
            .message()
            .contains("denied request: compilation error: compilation failed:"));
  }

  @Test
  void theBindingsMatchResourcesNarrowThePolicyToTheNamespacesItSelects() {
    state.putYaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: prod, labels: {tier: prod}}");
    state.putYaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: dev, labels: {tier: dev}}");
    policy(NEEDS_TEAM);
    state.remove(ResourceType.VALIDATING_ADMISSION_POLICY_BINDING, null, "p-binding");
    binding(
        "prod-only",
        """
        validationActions: [Deny]
        matchResources:
          namespaceSelector:
            matchExpressions: [{key: tier, operator: In, values: [prod]}]
        """);

    assertFalse(verdict(create(ALICE, secret("prod", "s", ""))).admitted());
    assertTrue(verdict(create(ALICE, secret("dev", "s", ""))).admitted());
    assertTrue(admission.decisions(create(ALICE, secret("dev", "s", ""))).isEmpty());
  }

  @Test
  void theBindingsObjectSelectorMatchesTheNewOrTheOldObject() {
    policy("validations:\n  - expression: \"false\"\n");
    state.remove(ResourceType.VALIDATING_ADMISSION_POLICY_BINDING, null, "p-binding");
    binding(
        "guarded",
        "validationActions: [Deny]\nmatchResources:\n  objectSelector: {matchLabels: {guarded: 'yes'}}\n");
    var guarded = secret("team-a", "s", "guarded: 'yes'");
    var plain = secret("team-a", "s", "");

    assertFalse(verdict(create(ALICE, guarded)).admitted());
    assertTrue(verdict(create(ALICE, plain)).admitted());
    assertFalse(verdict(update(ALICE, guarded, plain)).admitted(), "the old object is guarded");
  }

  @Test
  void matchConstraintsSelectByOperationResourceAndExclusions() {
    state.putYaml(
        """
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicy
        metadata: {name: p}
        spec:
          matchConstraints:
            resourceRules:
              - {apiGroups: ["*"], apiVersions: ["*"], resources: ["*"], operations: [CREATE]}
            excludeResourceRules:
              - {apiGroups: [""], apiVersions: ["*"], resources: [secrets], operations: ["*"], resourceNames: [free]}
          validations:
            - expression: "false"
        """);
    binding("p-binding", "validationActions: [Deny]");

    assertFalse(verdict(create(ALICE, LABELLED)).admitted(), "created, matched");
    assertTrue(verdict(update(ALICE, LABELLED, LABELLED)).admitted(), "updates are not matched");
    assertTrue(verdict(delete(ALICE, LABELLED)).admitted(), "deletions are not matched");
    assertTrue(verdict(create(ALICE, secret("team-a", "free", ""))).admitted(), "excluded");
  }

  @Test
  void aPolicyWithoutResourceRulesOrWithoutABindingDecidesNothing() {
    state.putYaml(
        """
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicy
        metadata: {name: p}
        spec:
          matchConstraints: {}
          validations: [{expression: "false"}]
        """);
    binding("p-binding", "validationActions: [Deny]");
    state.putYaml(
        """
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicy
        metadata: {name: unbound}
        spec:
          matchConstraints:
            resourceRules: [{apiGroups: ["*"], apiVersions: ["*"], resources: ["*"], operations: ["*"]}]
          validations: [{expression: "false"}]
        """);

    assertTrue(admission.decisions(create(ALICE, LABELLED)).isEmpty());
  }

  @Test
  void aDenialRefusesOnlyUnderABindingThatDenies() {
    policy(NEEDS_TEAM);
    state.remove(ResourceType.VALIDATING_ADMISSION_POLICY_BINDING, null, "p-binding");
    binding("warn-only", "validationActions: [Warn, Audit]");

    assertTrue(verdict(create(ALICE, UNLABELLED)).admitted());
    assertEquals(Outcome.DENIED, onlyDecision(create(ALICE, UNLABELLED)).outcome());
  }

  @Test
  void policiesAndBindingsAreReadAgainOnEveryRequest() {
    policy(NEEDS_TEAM);
    assertFalse(verdict(create(ALICE, UNLABELLED)).admitted());

    state.remove(ResourceType.VALIDATING_ADMISSION_POLICY_BINDING, null, "p-binding");

    assertTrue(verdict(create(ALICE, UNLABELLED)).admitted());
  }

  @Test
  void expressionsSeeTheRequestAsTheApiServerDescribesIt() {
    policy(
        """
        validations:
          - expression: >-
              request.operation == 'CREATE' && oldObject == null && params == null
              && request.userInfo.username == 'alice' && 'devs' in request.userInfo.groups
              && request.namespace == 'team-a' && request.name == 's'
              && request.kind.kind == 'Secret' && request.kind.group == '' && request.kind.version == 'v1'
              && request.resource.resource == 'secrets' && request.subResource == ''
              && object.data.k == 'dg==' && namespaceObject.metadata.labels.tier == 'prod'
        """);
    state.putYaml(
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a, labels: {tier: prod}}");

    assertEquals(Outcome.PASSED, onlyDecision(create(ALICE, UNLABELLED)).outcome());
  }

  @Test
  void anUpdateSeesTheOldObject() {
    policy(
        """
        validations:
          - expression: "request.operation == 'UPDATE' && oldObject.metadata.labels.team == 'a'"
        """);

    assertTrue(verdict(update(ALICE, LABELLED, UNLABELLED)).admitted());
    assertFalse(verdict(update(ALICE, UNLABELLED, LABELLED)).admitted());
  }

  @Test
  void paramsComeFromTheBindingsParamRef() {
    state.putYaml(
        """
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicy
        metadata: {name: p}
        spec:
          paramKind: {apiVersion: v1, kind: Namespace}
          matchConstraints:
            resourceRules:
              - {apiGroups: [""], apiVersions: [v1], resources: [secrets], operations: [CREATE]}
          validations:
            - expression: "object.metadata.labels.team == params.metadata.labels.allowedTeam"
        """);
    binding(
        "p-binding",
        "validationActions: [Deny]\nparamRef: {name: rules, parameterNotFoundAction: Deny}\n");

    Verdict withoutParams = verdict(create(ALICE, LABELLED));
    assertFalse(withoutParams.admitted());
    assertTrue(withoutParams.message().contains("no params found"), withoutParams.message());

    state.putYaml(
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: rules, labels: {allowedTeam: a}}");

    assertTrue(verdict(create(ALICE, LABELLED)).admitted());
    assertFalse(verdict(create(ALICE, secret("team-a", "s", "team: b"))).admitted());
  }

  @Test
  void anInjectedEvaluationFailureRefusesWhatThePolicyAppliesToAndNothingElse() {
    policy(
        """
        matchConditions:
          - {name: reserved, expression: "object.metadata.name.startsWith('kuik-')"}
        validations:
          - expression: "true"
        """);
    admission.setEvaluationFailure("p", true);

    Verdict reserved = verdict(create(ALICE, secret("team-a", "kuik-x", "")));
    assertFalse(reserved.admitted());
    assertEquals(
        "ValidatingAdmissionPolicy 'p' with binding 'p-binding' denied request: expression 'true'"
            + " resulted in error: CEL evaluation failed (fault injected by the simulator)",
        reserved.message());
    assertTrue(verdict(create(ALICE, secret("team-a", "helm-release", ""))).admitted());

    admission.setEvaluationFailure("p", false);

    assertTrue(verdict(create(ALICE, secret("team-a", "kuik-x", ""))).admitted());
  }

  @Test
  void anInjectedEvaluationFailureIsLetThroughUnderIgnore() {
    policy("Ignore", "validations:\n  - expression: \"true\"\n");
    admission.setEvaluationFailure("p", true);

    assertTrue(verdict(create(ALICE, LABELLED)).admitted());
  }

  @Test
  void eachExpressionIsCompiledOnce() throws Exception {
    var cel = new CelExpressions();
    var inputs = PolicyInputs.of(create(ALICE, LABELLED), state);

    for (int i = 0; i < 5; i++) {
      cel.evaluate(CelExpressions.Environment.VALIDATION, "object.metadata.name == 's'", inputs);
      cel.evaluate(CelExpressions.Environment.VALIDATION, "request.namespace == 'team-a'", inputs);
    }

    assertEquals(2, cel.compilations());
  }
}
