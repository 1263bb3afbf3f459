package io.kuik.sim.world.admission;

import io.kuik.sim.world.api.Identity;
import tools.jackson.databind.JsonNode;

/**
 * One subject of a RoleBinding or ClusterRoleBinding: a User (by name), a Group (any of the
 * identity's groups) or a ServiceAccount (the user {@code system:serviceaccount:<ns>:<name>}; its
 * namespace defaults to the RoleBinding's own).
 */
record RbacSubject(String kind, String name, String namespace) {

  static RbacSubject of(JsonNode subject, String bindingNamespace) {
    String namespace = Json.text(subject, "namespace");
    return new RbacSubject(
        Json.text(subject, "kind"),
        Json.text(subject, "name"),
        namespace.isEmpty() ? bindingNamespace : namespace);
  }

  boolean matches(Identity identity) {
    switch (kind) {
      case "User":
        return identity.user().equals(name);
      case "Group":
        return identity.groups().contains(name);
      case "ServiceAccount":
        return !namespace.isEmpty()
            && identity.user().equals("system:serviceaccount:" + namespace + ":" + name);
      default:
        return false;
    }
  }

  /** As the RBAC authorizer names a subject in its reasons. */
  String describe() {
    return "ServiceAccount".equals(kind)
        ? kind + " \"" + name + "/" + namespace + "\""
        : kind + " \"" + name + "\"";
  }
}
