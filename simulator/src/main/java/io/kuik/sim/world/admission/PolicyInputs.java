package io.kuik.sim.world.admission;

import io.kuik.sim.world.api.AdmissionRequest;
import io.kuik.sim.world.api.ClusterState;
import io.kuik.sim.world.api.ResourceType;
import java.util.HashMap;
import java.util.Map;

/**
 * The inputs the API server hands to a policy's expressions for one request: {@code object} (null
 * for DELETE), {@code oldObject} (null for CREATE), {@code request}, {@code namespaceObject} (null
 * for a cluster-scoped request) and {@code params} (null unless the policy has a paramKind).
 *
 * <p>{@code request} carries {@code operation}, {@code userInfo.username}, {@code userInfo.groups},
 * {@code userInfo.extra} (only when the authenticator gave some, e.g. the pod of a bound
 * ServiceAccount token), {@code namespace} and {@code name} (empty strings when absent), {@code
 * kind}, {@code resource}, their {@code request...} twins, {@code subResource} and {@code dryRun}:
 * true for a request sent with {@code ?dryRun=All}, as the API server sets it from the admission
 * attributes ({@code CreateAdmissionRequest} in
 * https://github.com/kubernetes/kubernetes/blob/v1.34.0/staging/src/k8s.io/apiserver/pkg/admission/plugin/cel/filter.go,
 * {@code DryRun: &dryRun} from {@code attr.IsDryRun()}).
 */
final class PolicyInputs {

  private PolicyInputs() {}

  static Map<String, Object> of(AdmissionRequest request, ClusterState state) {
    var inputs = new HashMap<String, Object>();
    inputs.put("object", CelValues.of(request.object()));
    inputs.put("oldObject", CelValues.of(request.oldObject()));
    inputs.put("request", request(request));
    inputs.put("namespaceObject", namespaceObject(request, state));
    inputs.put("params", CelValues.NULL);
    return inputs;
  }

  /**
   * The object's name as validating admission sees it: the request's, or else the one the object
   * carries by now. A create that asked for a generated name carried none, and mutating admission
   * sees it empty; the registry generates it before validating admission (store.go, {@code
   * BeforeCreate}), and the attributes validating admission gets are built again with the object's
   * name "in case the generated name is populated"
   * (https://github.com/kubernetes/kubernetes/blob/v1.34.0/staging/src/k8s.io/apiserver/pkg/registry/rest/create.go,
   * {@code AdmissionToValidateObjectFunc}): {@code request.name} is the generated name.
   */
  static String name(AdmissionRequest request) {
    String name = request.attributes().name();
    if (name != null && !name.isEmpty()) {
      return name;
    }
    if (request.object() != null) {
      return Json.name(request.object());
    }
    return request.oldObject() == null ? "" : Json.name(request.oldObject());
  }

  private static Map<String, Object> request(AdmissionRequest request) {
    ResourceType type = request.attributes().type();
    String namespace = request.attributes().namespace();
    String subresource = request.attributes().subresource();
    var kind = CelValues.map("group", type.group(), "version", type.version(), "kind", type.kind());
    var resource =
        CelValues.map(
            "group", type.group(), "version", type.version(), "resource", type.resource());
    var identity = request.attributes().identity();
    var userInfo = new java.util.LinkedHashMap<String, Object>();
    userInfo.put("username", identity.user());
    userInfo.put("groups", CelValues.list(identity.groups()));
    if (!identity.extra().isEmpty()) {
      // Left out when empty, as the API server's conversion of the request omits an empty map
      // (authenticationv1.UserInfo, extra omitempty): a policy must ask has() first.
      var extra = new java.util.LinkedHashMap<String, Object>();
      identity.extra().forEach((key, values) -> extra.put(key, CelValues.list(values)));
      userInfo.put("extra", java.util.Collections.unmodifiableMap(extra));
    }
    return CelValues.map(
        "operation",
        request.operation().name(),
        "userInfo",
        userInfo,
        "namespace",
        namespace == null ? "" : namespace,
        "name",
        name(request),
        "kind",
        kind,
        "resource",
        resource,
        "requestKind",
        kind,
        "requestResource",
        resource,
        "subResource",
        subresource == null ? "" : subresource,
        "dryRun",
        request.dryRun());
  }

  private static Object namespaceObject(AdmissionRequest request, ClusterState state) {
    String namespace = request.attributes().namespace();
    if (!request.attributes().type().namespaced() || namespace == null || namespace.isEmpty()) {
      return CelValues.NULL;
    }
    return state
        .get(ResourceType.NAMESPACE, null, namespace)
        .map(CelValues::of)
        .orElse(CelValues.NULL);
  }
}
