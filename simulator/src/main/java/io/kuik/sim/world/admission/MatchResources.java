package io.kuik.sim.world.admission;

import io.kuik.sim.world.api.AdmissionRequest;
import io.kuik.sim.world.api.ClusterState;
import io.kuik.sim.world.api.Operation;
import io.kuik.sim.world.api.ResourceType;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Whether a request falls under a policy's matchConstraints or a binding's matchResources, as the
 * API server decides it: the namespaceSelector, the objectSelector, one of the resourceRules and
 * none of the excludeResourceRules.
 *
 * <ul>
 *   <li>A rule lists apiGroups, apiVersions, resources and operations ({@code *} for any), an
 *       optional scope ({@code Cluster}, {@code Namespaced}, {@code *}) and optional resourceNames.
 *       A resource {@code secrets} matches the Secret itself, {@code secrets/*} its subresources
 *       too, {@code *} every resource and <code>&#42;/&#42;</code> every resource and subresource.
 *   <li>The namespaceSelector reads the labels of the request's namespace; a cluster-scoped request
 *       always passes it, except a Namespace, which is matched on its own labels.
 *   <li>The objectSelector passes when the new or the old object's labels match.
 *   <li>A policy without resourceRules matches nothing; a binding without them narrows nothing.
 * </ul>
 */
final class MatchResources {

  private final ClusterState state;

  MatchResources(ClusterState state) {
    this.state = state;
  }

  boolean matchesPolicy(JsonNode matchConstraints, AdmissionRequest request) {
    return matches(matchConstraints, request, false);
  }

  boolean matchesBinding(JsonNode matchResources, AdmissionRequest request) {
    return matchResources.isMissingNode()
        || matchResources.isNull()
        || matches(matchResources, request, true);
  }

  private boolean matches(JsonNode match, AdmissionRequest request, boolean narrowing) {
    JsonNode rules = match.path("resourceRules");
    boolean constrained = rules.isArray() && !rules.isEmpty();
    if (constrained && !anyRuleMatches(rules, request)) {
      return false;
    }
    if (!constrained && !narrowing) {
      return false;
    }
    if (anyRuleMatches(match.path("excludeResourceRules"), request)) {
      return false;
    }
    return namespaceMatches(match.path("namespaceSelector"), request)
        && objectMatches(match.path("objectSelector"), request);
  }

  private static boolean anyRuleMatches(JsonNode rules, AdmissionRequest request) {
    for (JsonNode rule : rules) {
      if (ruleMatches(rule, request)) {
        return true;
      }
    }
    return false;
  }

  private static boolean ruleMatches(JsonNode rule, AdmissionRequest request) {
    ResourceType type = request.attributes().type();
    return anyOrContains(Json.strings(rule, "operations"), request.operation().name())
        && anyOrContains(Json.strings(rule, "apiGroups"), type.group())
        && anyOrContains(Json.strings(rule, "apiVersions"), type.version())
        && resourceMatches(
            Json.strings(rule, "resources"), type.resource(), request.attributes().subresource())
        && scopeMatches(Json.text(rule, "scope"), type)
        && nameMatches(Json.strings(rule, "resourceNames"), PolicyInputs.name(request));
  }

  private static boolean anyOrContains(List<String> values, String value) {
    return values.contains("*") || values.contains(value);
  }

  private static boolean resourceMatches(List<String> rules, String resource, String subresource) {
    String sub = subresource == null ? "" : subresource;
    for (String rule : rules) {
      int slash = rule.indexOf('/');
      String ruleResource = slash < 0 ? rule : rule.substring(0, slash);
      String ruleSub = slash < 0 ? "" : rule.substring(slash + 1);
      boolean resourceMatch = ruleResource.equals("*") || ruleResource.equals(resource);
      boolean subMatch = ruleSub.equals("*") || ruleSub.equals(sub);
      if (resourceMatch && subMatch) {
        return true;
      }
    }
    return false;
  }

  private static boolean scopeMatches(String scope, ResourceType type) {
    switch (scope) {
      case "Cluster":
        return !type.namespaced();
      case "Namespaced":
        return type.namespaced();
      default:
        return true;
    }
  }

  private static boolean nameMatches(List<String> names, String name) {
    return names.isEmpty() || names.contains(name);
  }

  private boolean namespaceMatches(JsonNode selector, AdmissionRequest request) {
    ResourceType type = request.attributes().type();
    if (type.equals(ResourceType.NAMESPACE)) {
      return LabelSelectors.matches(selector, LabelSelectors.labelsOf(newOrOld(request)));
    }
    if (!type.namespaced()) {
      return true;
    }
    String namespace = request.attributes().namespace();
    Map<String, String> labels =
        LabelSelectors.labelsOf(
            namespace == null
                ? null
                : state.get(ResourceType.NAMESPACE, null, namespace).orElse(null));
    return LabelSelectors.matches(selector, labels);
  }

  private static boolean objectMatches(JsonNode selector, AdmissionRequest request) {
    return (request.object() != null
            && LabelSelectors.matches(selector, LabelSelectors.labelsOf(request.object())))
        || (request.oldObject() != null
            && LabelSelectors.matches(selector, LabelSelectors.labelsOf(request.oldObject())));
  }

  private static ObjectNode newOrOld(AdmissionRequest request) {
    return request.operation() == Operation.DELETE ? request.oldObject() : request.object();
  }
}
