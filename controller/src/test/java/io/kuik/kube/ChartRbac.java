package io.kuik.kube;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The Roles, ClusterRoles and bindings of one of the chart's RBAC files ({@code
 * chart/files/syncer-rbac.yaml}), rendered for a release and evaluated as Kubernetes' RBAC
 * authorizer does: a request is allowed when a rule of a role bound to the user allows it, a
 * ClusterRoleBinding in every namespace and at the cluster scope, a RoleBinding in its own
 * namespace only (plugin/pkg/auth/authorizer/rbac/rbac.go, {@code RuleAllows}; rule matching in
 * pkg/apis/rbac/v1/evaluation_helpers.go). Nothing else is granted: no aggregation, no default
 * roles beyond discovery.
 *
 * <p>The file is rendered by Helm itself with the chart's default values ({@link ChartFileRender}).
 */
public final class ChartRbac {

  private static final YAMLMapper YAML = YAMLMapper.builder().build();

  /** What the API server makes of one request: {@code RequestInfo} as the authorizer sees it. */
  public record Attributes(
      boolean resourceRequest,
      String verb,
      String group,
      String resource,
      String subresource,
      String namespace,
      String name,
      String path) {}

  private record Rule(
      Set<String> verbs, Set<String> groups, Set<String> resources, Set<String> names) {}

  /** The rules one binding grants to one user, in {@code namespace} or (null) everywhere. */
  private record Grant(String user, String namespace, List<Rule> rules) {}

  private final List<Grant> grants;

  private ChartRbac(List<Grant> grants) {
    this.grants = grants;
  }

  /** {@code chart/<file>} rendered for the release, seen from the controller module. */
  public static ChartRbac load(String file, String releaseName, String releaseNamespace) {
    return load(file, releaseName, releaseNamespace, "");
  }

  /**
   * {@code chart/<file>} rendered for the release, with more RBAC documents after it: what a
   * template of the chart adds from its values (the selftest's RoleBinding in the pod check's
   * namespace, say).
   */
  public static ChartRbac load(
      String file, String releaseName, String releaseNamespace, String more) {
    return parse(ChartFileRender.render(file, releaseName, releaseNamespace) + "\n---\n" + more);
  }

  /** Several chart files' grants together, as a release with the values that install them. */
  public static ChartRbac load(List<String> files, String releaseName, String releaseNamespace) {
    List<Grant> all = new ArrayList<>();
    files.forEach(file -> all.addAll(load(file, releaseName, releaseNamespace).grants));
    return new ChartRbac(List.copyOf(all));
  }

  private static ChartRbac parse(String yaml) {
    List<JsonNode> documents = new ArrayList<>();
    try (var values = YAML.readerFor(JsonNode.class).<JsonNode>readValues(yaml)) {
      while (values.hasNextValue()) {
        JsonNode document = values.nextValue();
        if (document != null && document.isObject()) {
          documents.add(document);
        }
      }
    }
    List<Grant> grants = new ArrayList<>();
    for (JsonNode binding : documents) {
      String kind = binding.path("kind").asString("");
      if (!kind.equals("RoleBinding") && !kind.equals("ClusterRoleBinding")) {
        continue;
      }
      String namespace =
          kind.equals("RoleBinding") ? binding.path("metadata").path("namespace").asString() : null;
      List<Rule> rules = rulesOf(documents, binding.path("roleRef"), namespace);
      for (JsonNode subject : binding.path("subjects")) {
        grants.add(new Grant(userOf(subject), namespace, rules));
      }
    }
    return new ChartRbac(List.copyOf(grants));
  }

  /** A RoleBinding's roleRef may name a Role of its namespace or a ClusterRole. */
  private static List<Rule> rulesOf(List<JsonNode> documents, JsonNode ref, String namespace) {
    String kind = ref.path("kind").asString();
    String name = ref.path("name").asString();
    for (JsonNode role : documents) {
      boolean sameKind = role.path("kind").asString("").equals(kind);
      boolean sameName = role.path("metadata").path("name").asString("").equals(name);
      boolean sameNamespace =
          kind.equals("ClusterRole")
              || role.path("metadata").path("namespace").asString("").equals(namespace);
      if (sameKind && sameName && sameNamespace) {
        List<Rule> rules = new ArrayList<>();
        for (JsonNode rule : role.path("rules")) {
          rules.add(
              new Rule(
                  strings(rule.path("verbs")),
                  strings(rule.path("apiGroups")),
                  strings(rule.path("resources")),
                  strings(rule.path("resourceNames"))));
        }
        return rules;
      }
    }
    throw new IllegalStateException("the chart binds " + kind + " " + name + ", which it lacks");
  }

  private static String userOf(JsonNode subject) {
    String kind = subject.path("kind").asString();
    String name = subject.path("name").asString();
    return kind.equals("ServiceAccount")
        ? "system:serviceaccount:" + subject.path("namespace").asString() + ":" + name
        : name;
  }

  private static Set<String> strings(JsonNode list) {
    Set<String> out = new java.util.LinkedHashSet<>();
    list.forEach(n -> out.add(n.asString()));
    return out;
  }

  /**
   * Whether the user may make the request. Non-resource requests (discovery, {@code /version}) are
   * allowed: every authenticated user holds {@code system:discovery}.
   */
  public boolean allows(String user, Attributes request) {
    if (!request.resourceRequest()) {
      return true;
    }
    for (Grant grant : grants) {
      boolean inScope = grant.namespace() == null || grant.namespace().equals(request.namespace());
      if (grant.user().equals(user) && inScope) {
        for (Rule rule : grant.rules()) {
          if (allows(rule, request)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean allows(Rule rule, Attributes r) {
    String combined =
        r.subresource().isEmpty() ? r.resource() : r.resource() + "/" + r.subresource();
    boolean resource =
        rule.resources().contains("*")
            || rule.resources().contains(combined)
            || (!r.subresource().isEmpty() && rule.resources().contains("*/" + r.subresource()));
    return (rule.verbs().contains("*") || rule.verbs().contains(r.verb()))
        && (rule.groups().contains("*") || rule.groups().contains(r.group()))
        && resource
        && (rule.names().isEmpty() || rule.names().contains(r.name()));
  }

  /**
   * The request's attributes, as the API server's {@code RequestInfoFactory.NewRequestInfo} reads
   * them from the method, the path and the {@code watch} query parameter
   * (staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go).
   */
  public static Attributes attributesOf(String method, String pathAndQuery) {
    int q = pathAndQuery.indexOf('?');
    String path = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
    String query = q < 0 ? "" : pathAndQuery.substring(q + 1);
    String verb = method.toLowerCase(java.util.Locale.ROOT);
    List<String> parts = new ArrayList<>();
    for (String part : path.split("/")) {
      if (!part.isEmpty()) {
        parts.add(part);
      }
    }
    Attributes nonResource = new Attributes(false, verb, "", "", "", "", "", path);
    if (parts.size() < 3 || !(parts.get(0).equals("api") || parts.get(0).equals("apis"))) {
      return nonResource;
    }
    String group = "";
    int at = 2; // after /api/{version}
    if (parts.get(0).equals("apis")) {
      if (parts.size() < 4) {
        return nonResource;
      }
      group = parts.get(1);
      at = 3;
    }
    List<String> rest = new ArrayList<>(parts.subList(at, parts.size()));
    if (rest.get(0).equals("watch") && rest.size() > 1) {
      verb = "watch";
      rest.remove(0);
    } else {
      verb =
          switch (method) {
            case "POST" -> "create";
            case "GET", "HEAD" -> "get";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> "delete";
            default -> "";
          };
    }
    String namespace = "";
    if (rest.get(0).equals("namespaces") && rest.size() > 1) {
      namespace = rest.get(1);
      if (rest.size() > 2 && !Set.of("status", "finalize").contains(rest.get(2))) {
        rest = rest.subList(2, rest.size());
      }
    }
    String resource = rest.get(0);
    String name = rest.size() > 1 ? rest.get(1) : "";
    String subresource = rest.size() > 2 ? rest.get(2) : "";
    if (name.isEmpty() && verb.equals("get")) {
      verb = watchRequested(query) ? "watch" : "list";
      // A list or watch whose field selector requires one metadata.name is authorized as a
      // request for that name (requestinfo.go, NewRequestInfo), so resourceNames can grant it.
      name = selectedName(query);
    }
    if (name.isEmpty() && verb.equals("delete")) {
      verb = "deletecollection";
    }
    return new Attributes(true, verb, group, resource, subresource, namespace, name, path);
  }

  /** The name a {@code fieldSelector} of exactly {@code metadata.name=<name>} selects, or "". */
  private static String selectedName(String query) {
    for (String pair : query.split("&")) {
      if (pair.startsWith("fieldSelector=")) {
        String selector =
            java.net.URLDecoder.decode(
                pair.substring("fieldSelector=".length()), java.nio.charset.StandardCharsets.UTF_8);
        for (String prefix : List.of("metadata.name==", "metadata.name=")) {
          if (selector.startsWith(prefix) && !selector.contains(",")) {
            return selector.substring(prefix.length());
          }
        }
      }
    }
    return "";
  }

  /** Any value of {@code watch} but {@code false} or {@code 0} asks for a watch. */
  private static boolean watchRequested(String query) {
    for (String pair : query.split("&")) {
      if (pair.startsWith("watch=")) {
        String value = pair.substring("watch=".length()).toLowerCase(java.util.Locale.ROOT);
        return !value.equals("false") && !value.equals("0");
      }
    }
    return false;
  }
}
