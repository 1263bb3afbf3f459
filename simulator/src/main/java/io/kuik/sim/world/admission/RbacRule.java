package io.kuik.sim.world.admission;

import io.kuik.sim.world.api.RequestAttributes;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * One PolicyRule of a Role or ClusterRole, matched as the RBAC authorizer does: every list must
 * match; {@code *} matches anything in verbs, apiGroups and resources; a subresource is named
 * {@code resource/subresource} (or <code>&#42;/subresource</code>); resourceNames, when present,
 * grant only requests that name one of them, so never a list, a watch of everything or a create.
 */
record RbacRule(
    List<String> verbs,
    List<String> apiGroups,
    List<String> resources,
    List<String> resourceNames) {

  private static final String ALL = "*";

  RbacRule {
    verbs = List.copyOf(verbs);
    apiGroups = List.copyOf(apiGroups);
    resources = List.copyOf(resources);
    resourceNames = List.copyOf(resourceNames);
  }

  static RbacRule of(JsonNode rule) {
    return new RbacRule(
        Json.strings(rule, "verbs"),
        Json.strings(rule, "apiGroups"),
        Json.strings(rule, "resources"),
        Json.strings(rule, "resourceNames"));
  }

  boolean allows(RequestAttributes request) {
    return verbMatches(request.verb().rbacName())
        && apiGroupMatches(request.type().group())
        && resourceMatches(request.type().resource(), request.subresource())
        && resourceNameMatches(request.name());
  }

  private boolean verbMatches(String verb) {
    return verbs.contains(ALL) || verbs.contains(verb);
  }

  private boolean apiGroupMatches(String group) {
    return apiGroups.contains(ALL) || apiGroups.contains(group);
  }

  private boolean resourceMatches(String resource, String subresource) {
    boolean hasSubresource = subresource != null && !subresource.isEmpty();
    String combined = hasSubresource ? resource + "/" + subresource : resource;
    for (String ruleResource : resources) {
      if (ruleResource.equals(ALL) || ruleResource.equals(combined)) {
        return true;
      }
      if (hasSubresource && ruleResource.equals("*/" + subresource)) {
        return true;
      }
    }
    return false;
  }

  private boolean resourceNameMatches(String name) {
    if (resourceNames.isEmpty()) {
      return true;
    }
    // A request without a name (list, watch of a collection, create) is never granted by a rule
    // that names its objects: RBAC cannot know which objects it will touch.
    return name != null && !name.isEmpty() && resourceNames.contains(name);
  }
}
