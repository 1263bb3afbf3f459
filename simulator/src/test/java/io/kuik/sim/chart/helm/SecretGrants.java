package io.kuik.sim.chart.helm;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * What the chart's RBAC lets one ServiceAccount do with Secrets, cluster-wide and per namespace.
 *
 * <p>Follows the RBAC rules the API server applies: a ClusterRoleBinding grants its role in every
 * namespace, a RoleBinding only in its own (the install namespace when the manifest names none); a
 * rule covers Secrets when its apiGroups hold {@code ""} or {@code *} and its resources hold {@code
 * secrets} or {@code *}; a ServiceAccount is also reached through its User name and the {@code
 * system:serviceaccounts[:ns]} and {@code system:authenticated} groups. A binding to a role the
 * chart does not ship cannot be checked and fails the analysis.
 */
final class SecretGrants {

  static final Set<String> READ_VERBS = Set.of("get", "list", "watch");

  private final Set<String> clusterWide = new TreeSet<>();
  private final Map<String, Set<String>> byNamespace = new TreeMap<>();

  private SecretGrants() {}

  static SecretGrants of(
      RenderedManifests manifests, String installNamespace, String serviceAccount) {
    SecretGrants grants = new SecretGrants();
    for (JsonNode binding : manifests.ofKind("ClusterRoleBinding")) {
      if (bindsTo(binding, installNamespace, serviceAccount)) {
        grants.clusterWide.addAll(secretVerbs(role(manifests, binding, null)));
      }
    }
    for (JsonNode binding : manifests.ofKind("RoleBinding")) {
      if (bindsTo(binding, installNamespace, serviceAccount)) {
        String namespace = orDefault(RenderedManifests.namespace(binding), installNamespace);
        grants
            .byNamespace
            .computeIfAbsent(namespace, n -> new TreeSet<>())
            .addAll(secretVerbs(role(manifests, binding, namespace)));
      }
    }
    return grants;
  }

  /** Verbs on Secrets granted in every namespace ({@code *} stands for all verbs). */
  Set<String> clusterWide() {
    return clusterWide;
  }

  /** Verbs on Secrets granted in one namespace, cluster-wide grants included. */
  Set<String> in(String namespace) {
    Set<String> verbs = new TreeSet<>(clusterWide);
    verbs.addAll(byNamespace.getOrDefault(namespace, Set.of()));
    return verbs;
  }

  /** Namespaces where some RoleBinding grants verbs on Secrets. */
  Set<String> namespacesWithGrants() {
    return byNamespace.keySet();
  }

  static boolean reads(Set<String> verbs) {
    return verbs.contains("*") || verbs.stream().anyMatch(READ_VERBS::contains);
  }

  static boolean allows(Set<String> verbs, String verb) {
    return verbs.contains("*") || verbs.contains(verb);
  }

  private static boolean bindsTo(JsonNode binding, String namespace, String serviceAccount) {
    for (JsonNode subject : binding.path("subjects").values()) {
      String kind = subject.path("kind").asString("");
      String name = subject.path("name").asString("");
      boolean matches =
          switch (kind) {
            case "ServiceAccount" ->
                name.equals(serviceAccount)
                    && namespace.equals(subject.path("namespace").asString(""));
            case "User" -> name.equals("system:serviceaccount:" + namespace + ":" + serviceAccount);
            case "Group" ->
                name.equals("system:serviceaccounts")
                    || name.equals("system:serviceaccounts:" + namespace)
                    || name.equals("system:authenticated");
            default -> false;
          };
      if (matches) {
        return true;
      }
    }
    return false;
  }

  private static JsonNode role(
      RenderedManifests manifests, JsonNode binding, String bindingNamespace) {
    String kind = binding.path("roleRef").path("kind").asString("");
    String name = binding.path("roleRef").path("name").asString("");
    for (JsonNode role : manifests.ofKind(kind)) {
      boolean sameScope =
          kind.equals("ClusterRole")
              || orDefault(RenderedManifests.namespace(role), bindingNamespace)
                  .equals(bindingNamespace);
      if (name.equals(RenderedManifests.name(role)) && sameScope) {
        return role;
      }
    }
    throw new AssertionError(
        RenderedManifests.kind(binding)
            + " "
            + RenderedManifests.name(binding)
            + " refers to "
            + kind
            + " "
            + name
            + ", which the chart does not ship: its Secret permissions cannot be checked");
  }

  private static Set<String> secretVerbs(JsonNode role) {
    if (!role.path("aggregationRule").isMissingNode()) {
      throw new AssertionError(
          "ClusterRole "
              + RenderedManifests.name(role)
              + " aggregates other roles: its Secret permissions cannot be checked here");
    }
    Set<String> verbs = new TreeSet<>();
    for (JsonNode rule : role.path("rules").values()) {
      var groups = RenderedManifests.strings(rule.path("apiGroups"));
      var resources = RenderedManifests.strings(rule.path("resources"));
      boolean coversSecrets =
          (groups.contains("") || groups.contains("*"))
              && (resources.contains("secrets") || resources.contains("*"));
      if (coversSecrets) {
        verbs.addAll(RenderedManifests.strings(rule.path("verbs")));
      }
    }
    return verbs;
  }

  private static String orDefault(String value, String fallback) {
    return value == null ? fallback : value;
  }

  @Override
  public String toString() {
    return "cluster-wide " + clusterWide + ", per namespace " + byNamespace;
  }
}
