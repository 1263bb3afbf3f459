package io.kuik.sim.world.admission;

import static io.kuik.sim.world.admission.AdmissionRequests.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.sim.world.api.AdmissionRequest;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.Operation;
import io.kuik.sim.world.api.RequestAttributes;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.api.Verb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * Which requests a policy's matchConstraints and a binding's matchResources select, as the API
 * server decides it (k8s.io/apiserver pkg/admission/plugin/webhook/predicates/rules and
 * namespace/matcher): every selected request is refused by a policy whose only validation is {@code
 * false}, every other one is admitted.
 */
class PolicyMatchTest {

  private static final Identity ALICE = Identity.person("alice", "devs");

  private final InMemoryClusterState state = new InMemoryClusterState();
  private final PolicyAdmission admission = new PolicyAdmission(state);

  private void policy(String matchConstraints, String bindingMatch) {
    state.putYaml(
        """
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicy
        metadata: {name: p}
        spec:
          failurePolicy: Fail
          matchConstraints:
        %s
          validations:
            - expression: "false"
        ---
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicyBinding
        metadata: {name: p-binding}
        spec:
          policyName: p
          validationActions: [Deny]
        %s
        """
            .formatted(matchConstraints.indent(4), bindingMatch.indent(2)));
  }

  private static String rule(String resources, String scope) {
    return "resourceRules:\n  - {apiGroups: [\"*\"], apiVersions: [\"*\"], operations: [\"*\"],"
        + " resources: ["
        + resources
        + "]"
        + (scope.isEmpty() ? "" : ", scope: " + scope)
        + "}";
  }

  private boolean selected(AdmissionRequest request) {
    return !admission.validate(request).admitted();
  }

  private static AdmissionRequest request(
      ResourceType type,
      Operation operation,
      String namespace,
      String name,
      String subresource,
      ObjectNode object,
      ObjectNode oldObject) {
    Verb verb =
        operation == Operation.DELETE
            ? Verb.DELETE
            : operation == Operation.CREATE ? Verb.CREATE : Verb.UPDATE;
    return new AdmissionRequest(
        new RequestAttributes(ALICE, verb, type, namespace, name, subresource),
        operation,
        object,
        oldObject);
  }

  private static ObjectNode secret(String labels) {
    return yaml(
        "apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: team-a, labels: {"
            + labels
            + "}}\n");
  }

  private static AdmissionRequest createSecret(String subresource) {
    return request(
        ResourceType.SECRET, Operation.CREATE, "team-a", "s", subresource, secret(""), null);
  }

  private static AdmissionRequest createNamespace(String labels) {
    ObjectNode ns =
        yaml(
            "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-b, labels: {"
                + labels
                + "}}\n");
    return request(ResourceType.NAMESPACE, Operation.CREATE, null, "team-b", null, ns, null);
  }

  @ParameterizedTest(name = "resources [{0}] with subresource \"{1}\": selected {2}")
  @CsvSource({
    "secrets, '', true",
    "secrets, status, false",
    "'secrets/*', status, true",
    "'secrets/*', '', true",
    "'secrets/status', status, true",
    "'*', '', true",
    "'*', status, false",
    "'*/*', status, true",
    "'*/*', '', true",
    "pods, '', false",
  })
  void aResourceRuleMatchesTheResourceAndItsSubresourceAsWritten(
      String resources, String subresource, boolean selected) {
    policy(rule("\"" + resources + "\"", ""), "");
    assertEquals(selected, selected(createSecret(subresource.isEmpty() ? null : subresource)));
  }

  @ParameterizedTest(name = "scope {0}: a Secret selected {1}, a Namespace selected {2}")
  @CsvSource({
    "'', true, true",
    "'\"*\"', true, true",
    "Namespaced, true, false",
    "Cluster, false, true"
  })
  void theScopeOfARuleSelectsNamespacedOrClusterResources(
      String scope, boolean secret, boolean namespace) {
    policy(rule("\"*\"", scope), "");
    assertEquals(secret, selected(createSecret(null)));
    assertEquals(namespace, selected(createNamespace("")));
  }

  @Test
  void resourceNamesNarrowARuleToThoseNames() {
    policy(
        "resourceRules:\n  - {apiGroups: [\"\"], apiVersions: [v1], operations: [\"*\"],"
            + " resources: [secrets], resourceNames: [s]}",
        "");
    assertEquals(true, selected(createSecret(null)));
    ObjectNode other = secret("");
    other.withObject("metadata").put("name", "other");
    assertEquals(
        false,
        selected(
            request(ResourceType.SECRET, Operation.CREATE, "team-a", "other", null, other, null)));
  }

  @Test
  void aRequestWithoutANameIsMatchedOnTheNameItsObjectCarries() {
    policy(
        "resourceRules:\n  - {apiGroups: [\"\"], apiVersions: [v1], operations: [\"*\"],"
            + " resources: [secrets], resourceNames: [s]}",
        "");
    assertEquals(
        true,
        selected(
            request(ResourceType.SECRET, Operation.CREATE, "team-a", "", null, secret(""), null)));
    assertEquals(
        true,
        selected(
            request(
                ResourceType.SECRET, Operation.DELETE, "team-a", null, null, null, secret(""))));
  }

  @Test
  void anExcludedRuleWinsOverAnIncludedOne() {
    policy(
        rule("\"*\"", "")
            + "\nexcludeResourceRules:\n  - {apiGroups: [\"\"], apiVersions: [v1],"
            + " operations: [\"*\"], resources: [secrets]}",
        "");
    assertEquals(false, selected(createSecret(null)));
    assertEquals(true, selected(createNamespace("")));
  }

  @Test
  void aPolicyWithoutResourceRulesSelectsNothing() {
    policy("namespaceSelector: {}", "");
    assertEquals(false, selected(createSecret(null)));
  }

  @Test
  void aBindingWithoutMatchResourcesNarrowsNothingAndOneWithRulesNarrows() {
    policy(rule("\"*\"", ""), "matchResources:\n  namespaceSelector: {}");
    assertEquals(true, selected(createSecret(null)), "a binding without rules narrows nothing");
    assertEquals(true, selected(createNamespace("")));

    policy(
        rule("\"*\"", ""),
        "matchResources:\n  resourceRules:\n    - {apiGroups: [\"\"], apiVersions: [v1],"
            + " operations: [\"*\"], resources: [namespaces]}");
    assertEquals(false, selected(createSecret(null)));
    assertEquals(true, selected(createNamespace("")));
  }

  @Test
  void theNamespaceSelectorReadsTheLabelsOfTheRequestsNamespace() {
    state.putYaml(
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a, labels: {tier: prod}}\n");
    policy(rule("\"*\"", "") + "\nnamespaceSelector: {matchLabels: {tier: prod}}", "");
    assertEquals(true, selected(createSecret(null)));

    state.putYaml(
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a, labels: {tier: dev}}\n");
    assertEquals(false, selected(createSecret(null)));

    ObjectNode role =
        yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r}\n");
    assertEquals(
        true,
        selected(request(ResourceType.CLUSTER_ROLE, Operation.CREATE, null, "r", null, role, null)),
        "a cluster-scoped request always passes the namespaceSelector");
    assertEquals(true, selected(createNamespace("tier: prod")), "a Namespace by its own labels");
    assertEquals(false, selected(createNamespace("tier: dev")));
  }

  @Test
  void aNamespaceBeingDeletedIsMatchedOnItsOldLabels() {
    policy(rule("\"*\"", "") + "\nnamespaceSelector: {matchLabels: {tier: prod}}", "");
    ObjectNode ns =
        yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: team-b, labels: {tier: prod}}\n");
    assertEquals(
        true,
        selected(
            request(ResourceType.NAMESPACE, Operation.DELETE, null, "team-b", null, null, ns)));
  }

  @Test
  void theObjectSelectorPassesWhenTheNewOrTheOldObjectMatches() {
    policy(rule("\"*\"", "") + "\nobjectSelector: {matchLabels: {team: a}}", "");
    assertEquals(true, selected(createSecretWith("team: a", null)));
    assertEquals(false, selected(createSecretWith("team: b", null)));
    assertEquals(
        true,
        selected(
            request(
                ResourceType.SECRET,
                Operation.UPDATE,
                "team-a",
                "s",
                null,
                secret("team: b"),
                secret("team: a"))));
  }

  private static AdmissionRequest createSecretWith(String labels, ObjectNode old) {
    return request(ResourceType.SECRET, Operation.CREATE, "team-a", "s", null, secret(labels), old);
  }
}
