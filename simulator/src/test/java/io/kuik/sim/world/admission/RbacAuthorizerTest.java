package io.kuik.sim.world.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.world.api.Authorizer.Decision;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.RequestAttributes;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.api.Verb;
import org.junit.jupiter.api.Test;

/** Kubernetes RBAC rules, one test per rule, on hand-written roles and bindings. */
class RbacAuthorizerTest {

  private static final Identity ALICE = Identity.person("alice", "team-a-devs");
  private static final Identity BOB = Identity.person("bob");
  private static final Identity BUILDER = Identity.serviceAccount("ci", "builder");

  private final InMemoryClusterState state = new InMemoryClusterState();
  private final RbacAuthorizer rbac = new RbacAuthorizer(state);

  private static RequestAttributes request(
      Identity who, Verb verb, ResourceType type, String namespace, String name) {
    return new RequestAttributes(who, verb, type, namespace, name, null);
  }

  private boolean allowed(Identity who, Verb verb, ResourceType type, String ns, String name) {
    return rbac.authorize(request(who, verb, type, ns, name)).allowed();
  }

  private void clusterRole(String name, String rules) {
    state.putYaml(
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: "
            + name
            + "}\nrules:\n"
            + rules);
  }

  private void role(String namespace, String name, String rules) {
    state.putYaml(
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: "
            + name
            + ", namespace: "
            + namespace
            + "}\nrules:\n"
            + rules);
  }

  private void clusterRoleBinding(String role, String subject) {
    state.putYaml(
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: "
            + role
            + "-binding}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "
            + role
            + "}\nsubjects: ["
            + subject
            + "]\n");
  }

  private void roleBinding(String namespace, String roleKind, String role, String subject) {
    state.putYaml(
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: "
            + role
            + "-binding, namespace: "
            + namespace
            + "}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: "
            + roleKind
            + ", name: "
            + role
            + "}\nsubjects: ["
            + subject
            + "]\n");
  }

  @Test
  void deniesWhenNoBindingNamesTheRequester() {
    clusterRole("reader", "- {apiGroups: [''], resources: [pods], verbs: [get]}");
    clusterRoleBinding("reader", "{kind: User, name: alice}");

    assertFalse(allowed(BOB, Verb.GET, ResourceType.POD, "team-a", "web"));
  }

  @Test
  void clusterRoleBindingGrantsInEveryNamespaceAndAtTheClusterScope() {
    clusterRole("reader", "- {apiGroups: [''], resources: [pods], verbs: [get, list]}");
    clusterRoleBinding("reader", "{kind: User, name: alice}");

    assertTrue(allowed(ALICE, Verb.GET, ResourceType.POD, "team-a", "web"));
    assertTrue(allowed(ALICE, Verb.GET, ResourceType.POD, "team-b", "web"));
    assertTrue(allowed(ALICE, Verb.LIST, ResourceType.POD, null, null));
  }

  @Test
  void roleBindingGrantsOnlyInItsOwnNamespace() {
    role("team-a", "reader", "- {apiGroups: [''], resources: [pods], verbs: [get]}");
    roleBinding("team-a", "Role", "reader", "{kind: User, name: alice}");

    assertTrue(allowed(ALICE, Verb.GET, ResourceType.POD, "team-a", "web"));
    assertFalse(allowed(ALICE, Verb.GET, ResourceType.POD, "team-b", "web"));
  }

  @Test
  void roleBindingToAClusterRoleStillGrantsOnlyInItsOwnNamespace() {
    clusterRole("reader", "- {apiGroups: [''], resources: [pods], verbs: [get]}");
    roleBinding("team-a", "ClusterRole", "reader", "{kind: User, name: alice}");

    assertTrue(allowed(ALICE, Verb.GET, ResourceType.POD, "team-a", "web"));
    assertFalse(allowed(ALICE, Verb.GET, ResourceType.POD, "team-b", "web"));
  }

  @Test
  void roleBindingNeverGrantsACrossNamespaceOrClusterScopedRequest() {
    clusterRole("everything", "- {apiGroups: ['*'], resources: ['*'], verbs: ['*']}");
    roleBinding("team-a", "ClusterRole", "everything", "{kind: User, name: alice}");

    assertFalse(allowed(ALICE, Verb.LIST, ResourceType.SECRET, null, null));
    assertFalse(allowed(ALICE, Verb.GET, ResourceType.NAMESPACE, null, "team-a"));
  }

  @Test
  void roleBindingCannotReferenceARoleOfAnotherNamespace() {
    role("team-b", "reader", "- {apiGroups: [''], resources: [pods], verbs: [get]}");
    roleBinding("team-a", "Role", "reader", "{kind: User, name: alice}");

    assertFalse(allowed(ALICE, Verb.GET, ResourceType.POD, "team-a", "web"));
    assertFalse(allowed(ALICE, Verb.GET, ResourceType.POD, "team-b", "web"));
  }

  @Test
  void bindingToAMissingRoleGrantsNothing() {
    clusterRoleBinding("ghost", "{kind: User, name: alice}");

    assertFalse(allowed(ALICE, Verb.GET, ResourceType.POD, "team-a", "web"));
  }

  @Test
  void userSubjectMatchesTheExactUserName() {
    clusterRole("reader", "- {apiGroups: [''], resources: [pods], verbs: [get]}");
    clusterRoleBinding("reader", "{kind: User, name: ali}");

    assertFalse(allowed(ALICE, Verb.GET, ResourceType.POD, "team-a", "web"));
  }

  @Test
  void groupSubjectMatchesAnyOfTheRequestersGroups() {
    clusterRole("reader", "- {apiGroups: [''], resources: [pods], verbs: [get]}");
    clusterRoleBinding("reader", "{kind: Group, name: team-a-devs}");

    assertTrue(allowed(ALICE, Verb.GET, ResourceType.POD, "team-a", "web"));
    assertFalse(allowed(BOB, Verb.GET, ResourceType.POD, "team-a", "web"));
  }

  @Test
  void serviceAccountSubjectMatchesItsFullUserName() {
    clusterRole("reader", "- {apiGroups: [''], resources: [pods], verbs: [get]}");
    clusterRoleBinding("reader", "{kind: ServiceAccount, name: builder, namespace: ci}");

    assertTrue(allowed(BUILDER, Verb.GET, ResourceType.POD, "team-a", "web"));
    assertFalse(
        allowed(
            Identity.serviceAccount("other", "builder"), Verb.GET, ResourceType.POD, "x", "web"));
  }

  @Test
  void serviceAccountSubjectWithoutNamespaceIsInTheRoleBindingsNamespace() {
    role("ci", "reader", "- {apiGroups: [''], resources: [pods], verbs: [get]}");
    roleBinding("ci", "Role", "reader", "{kind: ServiceAccount, name: builder}");

    assertTrue(allowed(BUILDER, Verb.GET, ResourceType.POD, "ci", "web"));
  }

  @Test
  void serviceAccountGroupsGrantToEveryServiceAccountOfANamespace() {
    clusterRole("reader", "- {apiGroups: [''], resources: [pods], verbs: [get]}");
    clusterRoleBinding("reader", "{kind: Group, name: 'system:serviceaccounts:ci'}");

    assertTrue(allowed(BUILDER, Verb.GET, ResourceType.POD, "team-a", "web"));
    assertFalse(allowed(BOB, Verb.GET, ResourceType.POD, "team-a", "web"));
  }

  @Test
  void verbsMustMatchUnlessTheRuleSaysStar() {
    clusterRole("reader", "- {apiGroups: [''], resources: [pods], verbs: [get]}");
    clusterRole("anything", "- {apiGroups: [''], resources: [secrets], verbs: ['*']}");
    clusterRoleBinding("reader", "{kind: User, name: alice}");
    clusterRoleBinding("anything", "{kind: User, name: alice}");

    assertFalse(allowed(ALICE, Verb.DELETE, ResourceType.POD, "team-a", "web"));
    assertTrue(allowed(ALICE, Verb.DELETE, ResourceType.SECRET, "team-a", "web"));
  }

  @Test
  void apiGroupMustMatchUnlessTheRuleSaysStar() {
    clusterRole("core", "- {apiGroups: [''], resources: [imagealternatives], verbs: [get]}");
    clusterRoleBinding("core", "{kind: User, name: alice}");

    assertFalse(allowed(ALICE, Verb.GET, ResourceType.IMAGE_ALTERNATIVE, null, "acme"));

    clusterRole("any", "- {apiGroups: ['*'], resources: [imagealternatives], verbs: [get]}");
    clusterRoleBinding("any", "{kind: User, name: alice}");

    assertTrue(allowed(ALICE, Verb.GET, ResourceType.IMAGE_ALTERNATIVE, null, "acme"));
  }

  @Test
  void starResourceMatchesEveryResourceAndSubresource() {
    clusterRole("all", "- {apiGroups: [''], resources: ['*'], verbs: [update]}");
    clusterRoleBinding("all", "{kind: User, name: alice}");

    assertTrue(allowed(ALICE, Verb.UPDATE, ResourceType.SECRET, "team-a", "s"));
    assertTrue(
        rbac.authorize(
                new RequestAttributes(
                    ALICE, Verb.UPDATE, ResourceType.POD, "team-a", "web", "status"))
            .allowed());
  }

  @Test
  void subresourceNeedsARuleNamingIt() {
    clusterRole("pods", "- {apiGroups: [''], resources: [pods], verbs: [update]}");
    clusterRoleBinding("pods", "{kind: User, name: alice}");
    var status = new RequestAttributes(ALICE, Verb.UPDATE, ResourceType.POD, "a", "web", "status");

    assertFalse(rbac.authorize(status).allowed());

    clusterRole("status", "- {apiGroups: [''], resources: [pods/status], verbs: [update]}");
    clusterRoleBinding("status", "{kind: User, name: alice}");

    assertTrue(rbac.authorize(status).allowed());
    assertTrue(allowed(ALICE, Verb.UPDATE, ResourceType.POD, "a", "web"));
  }

  @Test
  void starSlashSubresourceMatchesThatSubresourceOfEveryResource() {
    clusterRole("statuses", "- {apiGroups: [''], resources: ['*/status'], verbs: [update]}");
    clusterRoleBinding("statuses", "{kind: User, name: alice}");

    assertTrue(
        rbac.authorize(
                new RequestAttributes(ALICE, Verb.UPDATE, ResourceType.POD, "a", "web", "status"))
            .allowed());
    assertFalse(allowed(ALICE, Verb.UPDATE, ResourceType.POD, "a", "web"));
  }

  @Test
  void resourceNamesGrantOnlyTheNamedObjects() {
    clusterRole(
        "one", "- {apiGroups: [''], resources: [secrets], verbs: [get], resourceNames: [pull]}");
    clusterRoleBinding("one", "{kind: User, name: alice}");

    assertTrue(allowed(ALICE, Verb.GET, ResourceType.SECRET, "team-a", "pull"));
    assertFalse(allowed(ALICE, Verb.GET, ResourceType.SECRET, "team-a", "other"));
  }

  @Test
  void resourceNamesNeverGrantAListAWatchOrACreate() {
    clusterRole(
        "one",
        "- {apiGroups: [''], resources: [secrets], verbs: [list, watch, create],"
            + " resourceNames: [pull]}");
    clusterRoleBinding("one", "{kind: User, name: alice}");

    assertFalse(allowed(ALICE, Verb.LIST, ResourceType.SECRET, "team-a", null));
    assertFalse(allowed(ALICE, Verb.WATCH, ResourceType.SECRET, "team-a", null));
    assertFalse(allowed(ALICE, Verb.CREATE, ResourceType.SECRET, "team-a", null));
  }

  @Test
  void bindingsAreReadAgainOnEveryRequest() {
    clusterRole("reader", "- {apiGroups: [''], resources: [pods], verbs: [get]}");

    assertFalse(allowed(ALICE, Verb.GET, ResourceType.POD, "team-a", "web"));

    clusterRoleBinding("reader", "{kind: User, name: alice}");

    assertTrue(allowed(ALICE, Verb.GET, ResourceType.POD, "team-a", "web"));
  }

  /**
   * rbac.go, {@code RBACAuthorizer.Authorize}: a request no rule allows gets "no opinion" and no
   * reason; the API server words the 403 itself (RbacRequestsTest shows the message).
   */
  @Test
  void denialCarriesNoReasonOfItsOwn() {
    Decision named = rbac.authorize(request(BOB, Verb.GET, ResourceType.SECRET, "team-a", "pull"));
    Decision clusterWide = rbac.authorize(request(BOB, Verb.LIST, ResourceType.POD, null, null));

    assertFalse(named.allowed());
    assertEquals("", named.reason());
    assertEquals("", clusterWide.reason());
  }

  @Test
  void allowanceNamesTheBindingRoleAndSubject() {
    clusterRole("reader", "- {apiGroups: [''], resources: [pods], verbs: [get]}");
    roleBinding("ci", "ClusterRole", "reader", "{kind: ServiceAccount, name: builder}");

    Decision decision = rbac.authorize(request(BUILDER, Verb.GET, ResourceType.POD, "ci", "web"));

    assertEquals(
        "RBAC: allowed by RoleBinding \"reader-binding/ci\" of ClusterRole \"reader\" to"
            + " ServiceAccount \"builder/ci\"",
        decision.reason());
  }
}
