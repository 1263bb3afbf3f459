package io.kuik.sim.world.admission;

import static io.kuik.sim.world.admission.AdmissionRequests.create;
import static io.kuik.sim.world.admission.AdmissionRequests.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.world.admission.PolicyDecision.Outcome;
import io.kuik.sim.world.api.AdmissionRequest;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.Operation;
import io.kuik.sim.world.api.RequestAttributes;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.api.ValidatingAdmission.Verdict;
import io.kuik.sim.world.api.Verb;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * Where a policy's params come from (the binding's paramRef, by name or selector, in which
 * namespace), and the values CEL sees of the request's objects and of {@code variables}.
 */
class PolicyParamsTest {

  private static final Identity ALICE = Identity.person("alice", "devs");

  private final InMemoryClusterState state = new InMemoryClusterState();
  private final PolicyAdmission admission = new PolicyAdmission(state);

  private static final ObjectNode SECRET =
      yaml(
          "apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: team-a, labels: {team: a}}\n"
              + "data: {k: dg==}\n");

  private void policy(String paramKind, String paramRef, String expression) {
    state.putYaml(
        """
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicy
        metadata: {name: p}
        spec:
          failurePolicy: Fail
          %s
          matchConstraints:
            resourceRules:
              - {apiGroups: ["*"], apiVersions: ["*"], resources: ["*"], operations: ["*"]}
          validations:
            - expression: "%s"
        ---
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicyBinding
        metadata: {name: p-binding}
        spec:
          policyName: p
          validationActions: [Deny]
          %s
        """
            .formatted(paramKind, expression, paramRef));
  }

  private static final String SECRET_PARAMS = "paramKind: {apiVersion: v1, kind: Secret}";

  private void paramSecret(String namespace, String name, String allowed) {
    state.putYaml(
        "apiVersion: v1\nkind: Secret\nmetadata: {name: "
            + name
            + ", namespace: "
            + namespace
            + ", labels: {role: rules, allowed: "
            + allowed
            + "}}\n");
  }

  private static final String ALLOWED_TEAM =
      "object.metadata.labels.team == params.metadata.labels.allowed";

  @Test
  void namespacedParamsAreReadInTheRequestsNamespaceByDefault() {
    policy(SECRET_PARAMS, "paramRef: {name: rules, parameterNotFoundAction: Deny}", ALLOWED_TEAM);
    paramSecret("other", "rules", "a");
    assertFalse(admission.validate(create(ALICE, SECRET)).admitted(), "not in team-a");
    paramSecret("team-a", "rules", "a");
    assertTrue(admission.validate(create(ALICE, SECRET)).admitted());
  }

  @Test
  void aParamRefNamespaceWinsOverTheRequests() {
    policy(
        SECRET_PARAMS,
        "paramRef: {name: rules, namespace: kuik-system, parameterNotFoundAction: Deny}",
        ALLOWED_TEAM);
    paramSecret("team-a", "rules", "a");
    assertFalse(admission.validate(create(ALICE, SECRET)).admitted());
    paramSecret("kuik-system", "rules", "a");
    assertTrue(admission.validate(create(ALICE, SECRET)).admitted());
  }

  @Test
  void aSelectorGivesOneDecisionPerMatchingParamInNameOrder() {
    policy(
        SECRET_PARAMS,
        "paramRef: {selector: {matchLabels: {role: rules}}, parameterNotFoundAction: Allow}",
        ALLOWED_TEAM);
    assertTrue(admission.validate(create(ALICE, SECRET)).admitted(), "none found: Allow skips");
    assertEquals(Outcome.SKIPPED, admission.decisions(create(ALICE, SECRET)).get(0).outcome());

    paramSecret("team-a", "r1", "a");
    paramSecret("team-a", "r2", "b");
    List<PolicyDecision> decisions = admission.decisions(create(ALICE, SECRET));
    assertEquals(
        List.of(Outcome.PASSED, Outcome.DENIED),
        decisions.stream().map(PolicyDecision::outcome).toList());
    assertFalse(admission.validate(create(ALICE, SECRET)).admitted());
  }

  @Test
  void namespacedParamsForAClusterScopedRequestNeedANamespace() {
    policy(SECRET_PARAMS, "paramRef: {name: rules, parameterNotFoundAction: Deny}", "true");
    ObjectNode ns = yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: team-b}\n");
    AdmissionRequest request =
        new AdmissionRequest(
            new RequestAttributes(ALICE, Verb.CREATE, ResourceType.NAMESPACE, null, "team-b", null),
            Operation.CREATE,
            ns,
            null);
    Verdict verdict = admission.validate(request);
    assertFalse(verdict.admitted());
    assertTrue(verdict.message().contains("need a paramRef namespace"), verdict.message());
  }

  @Test
  void aParamKindTheServerDoesNotServeOrABindingWithoutParamRefFails() {
    policy("paramKind: {apiVersion: v1, kind: ConfigMap}", "paramRef: {name: rules}", "true");
    Verdict unserved = admission.validate(create(ALICE, SECRET));
    assertFalse(unserved.admitted());
    assertTrue(
        unserved.message().contains("paramKind v1/ConfigMap is not served"), unserved.message());

    policy(SECRET_PARAMS, "", "true");
    Verdict noRef = admission.validate(create(ALICE, SECRET));
    assertFalse(noRef.admitted());
    assertTrue(noRef.message().contains("the binding no paramRef"), noRef.message());
  }

  @Test
  void celSeesNumbersBooleansListsAndStringsAsTheJsonHoldsThem() {
    ObjectNode pod =
        yaml(
            """
            apiVersion: v1
            kind: Secret
            metadata: {name: s, namespace: team-a}
            spec: {replicas: 3, ratio: 0.5, enabled: true, names: [a, b], nothing: null}
            """);
    policy(
        "",
        "",
        "object.spec.replicas == 3 && object.spec.ratio == 0.5 && object.spec.enabled"
            + " && object.spec.names == ['a', 'b'] && object.spec.nothing == null");
    assertTrue(admission.validate(create(ALICE, pod)).admitted());
  }

  @Test
  void variablesAreSeenOneByOneOrAsAWholeMap() {
    state.putYaml(
        """
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicy
        metadata: {name: p}
        spec:
          failurePolicy: Fail
          matchConstraints:
            resourceRules:
              - {apiGroups: ["*"], apiVersions: ["*"], resources: ["*"], operations: ["*"]}
          variables:
            - {name: team, expression: "object.metadata.labels.team"}
            - {name: isA, expression: "variables.team == 'a'"}
          validations:
            - expression: "variables.isA && size(variables) == 2 && 'team' in variables"
            - expression: "!('missing' in variables)"
        ---
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicyBinding
        metadata: {name: p-binding}
        spec: {policyName: p, validationActions: [Deny]}
        """);
    assertTrue(admission.validate(create(ALICE, SECRET)).admitted());
  }

  @Test
  void theRequestNamesTheObjectAndItsNamespacesObjectIsThere() {
    state.putYaml(
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a, labels: {tier: prod}}");
    policy(
        "",
        "",
        "request.name == 's' && namespaceObject.metadata.labels.tier == 'prod'"
            + " && request.namespace == 'team-a'");
    assertTrue(admission.validate(create(ALICE, SECRET)).admitted());
    ObjectNode unnamed = SECRET.deepCopy();
    AdmissionRequest withoutName =
        new AdmissionRequest(
            new RequestAttributes(ALICE, Verb.CREATE, ResourceType.SECRET, "team-a", null, null),
            Operation.CREATE,
            unnamed,
            null);
    assertTrue(admission.validate(withoutName).admitted(), "named from the object");
  }
}
