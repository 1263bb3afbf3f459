package io.kuik.sim.world.admission;

import io.kuik.sim.world.api.Authorizer;
import io.kuik.sim.world.api.ClusterState;
import io.kuik.sim.world.api.RequestAttributes;
import io.kuik.sim.world.api.ResourceType;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Kubernetes RBAC over the Roles, ClusterRoles, RoleBindings and ClusterRoleBindings stored in the
 * cluster, read again on every request so that a binding takes effect as soon as it is stored.
 *
 * <ul>
 *   <li>A ClusterRoleBinding grants its ClusterRole's rules everywhere: in every namespace and at
 *       the cluster scope.
 *   <li>A RoleBinding grants the rules of its Role, or of the ClusterRole it references, only for
 *       requests in its own namespace; never a cluster-wide request.
 *   <li>A binding whose role does not exist grants nothing. Nothing ever denies: a request is
 *       allowed when one rule of one matching binding allows it.
 * </ul>
 *
 * <p>Aggregated ClusterRoles are not assembled: a ClusterRole grants the rules stored in it.
 */
public final class RbacAuthorizer implements Authorizer {

  private static final Comparator<ObjectNode> BY_NAME = Comparator.comparing(Json::name);

  private final ClusterState state;

  public RbacAuthorizer(ClusterState state) {
    this.state = Objects.requireNonNull(state, "state");
  }

  @Override
  public Decision authorize(RequestAttributes request) {
    for (ObjectNode binding : sorted(state.list(ResourceType.CLUSTER_ROLE_BINDING, null))) {
      Optional<String> reason = grant(binding, "", request);
      if (reason.isPresent()) {
        return Decision.allow(reason.get());
      }
    }
    String namespace = request.namespace();
    if (namespace != null && !namespace.isEmpty()) {
      for (ObjectNode binding : sorted(state.list(ResourceType.ROLE_BINDING, namespace))) {
        Optional<String> reason = grant(binding, namespace, request);
        if (reason.isPresent()) {
          return Decision.allow(reason.get());
        }
      }
    }
    // rbac.go (RBACAuthorizer.Authorize) gives a reason only when rules could not be resolved; a
    // plain no-match is "no opinion" without one, and the API server words the 403 itself.
    return Decision.deny("");
  }

  /** The allow reason when the binding names the requester and its role has a matching rule. */
  private Optional<String> grant(
      ObjectNode binding, String bindingNamespace, RequestAttributes request) {
    Optional<RbacSubject> subject = subjectFor(binding, bindingNamespace, request);
    if (subject.isEmpty()) {
      return Optional.empty();
    }
    JsonNode roleRef = binding.path("roleRef");
    String roleKind = Json.text(roleRef, "kind");
    String roleName = Json.text(roleRef, "name");
    Optional<ObjectNode> role = role(roleKind, roleName, bindingNamespace);
    if (role.isEmpty()) {
      return Optional.empty();
    }
    for (JsonNode rule : role.get().path("rules")) {
      if (RbacRule.of(rule).allows(request)) {
        return Optional.of(
            "RBAC: allowed by "
                + (bindingNamespace.isEmpty() ? "ClusterRoleBinding" : "RoleBinding")
                + " \""
                + Json.name(binding)
                + (bindingNamespace.isEmpty() ? "" : "/" + bindingNamespace)
                + "\" of "
                + roleKind
                + " \""
                + roleName
                + "\" to "
                + subject.get().describe());
      }
    }
    return Optional.empty();
  }

  private static Optional<RbacSubject> subjectFor(
      ObjectNode binding, String bindingNamespace, RequestAttributes request) {
    for (JsonNode subject : binding.path("subjects")) {
      RbacSubject candidate = RbacSubject.of(subject, bindingNamespace);
      if (candidate.matches(request.identity())) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private Optional<ObjectNode> role(String kind, String name, String bindingNamespace) {
    if (kind.equals("ClusterRole")) {
      return state.get(ResourceType.CLUSTER_ROLE, null, name);
    }
    // A Role can only be referenced from a RoleBinding of its own namespace.
    if (kind.equals("Role") && !bindingNamespace.isEmpty()) {
      return state.get(ResourceType.ROLE, bindingNamespace, name);
    }
    return Optional.empty();
  }

  private static List<ObjectNode> sorted(List<ObjectNode> objects) {
    return objects.stream().sorted(BY_NAME).toList();
  }
}
