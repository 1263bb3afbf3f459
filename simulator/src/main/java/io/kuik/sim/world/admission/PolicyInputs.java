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
 * {@code namespace} and {@code name} (empty strings when absent), {@code kind}, {@code resource},
 * their {@code request...} twins, {@code subResource} and {@code dryRun}.
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

  /** The object's name: the request's, or else the one the object carries. */
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
    var userInfo =
        CelValues.map(
            "username",
            request.attributes().identity().user(),
            "groups",
            CelValues.list(request.attributes().identity().groups()));
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
        false);
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
