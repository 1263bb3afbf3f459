package io.kuik.kube;

import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * fabric8's CRUD mock server, taught server-side apply, which its CRUD mode lacks (it answers 415
 * to {@code application/apply-patch+yaml}): an apply creates a missing object and merges into an
 * existing one (JSON merge patch semantics, enough for one field manager that always applies every
 * field it owns), and an identical apply changes nothing, resourceVersion included.
 *
 * <p>An apply to {@code <object>/status} merges into status alone and is 404 for a missing object,
 * as the API server serves a custom resource's status subresource.
 *
 * <p>Field ownership and conflicts are not modelled: the syncer always forces. Create-or-merge is
 * two steps under the dispatcher's lock each, not one; the syncer sends one apply at a time.
 */
final class ServerSideApplyDispatcher extends KubernetesCrudDispatcher {

  static final String APPLY_PATCH = "application/apply-patch+yaml";
  private static final YAMLMapper YAML = YAMLMapper.builder().build();
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final Set<String> refusingNamespaces = ConcurrentHashMap.newKeySet();
  private final List<String> applies = new java.util.concurrent.CopyOnWriteArrayList<>();

  ServerSideApplyDispatcher(List<CustomResourceDefinitionContext> customResources) {
    super(customResources);
  }

  /**
   * From now on, applies in {@code namespace} are refused with 403, as an admission policy would.
   */
  void refuseAppliesIn(String namespace) {
    refusingNamespaces.add(namespace);
  }

  /** The path and query of every apply so far, in arrival order. */
  List<String> applies() {
    return List.copyOf(applies);
  }

  @Override
  public MockResponse handlePatch(RecordedRequest request) {
    String type = request.getHeader("Content-Type");
    if (type == null || !type.startsWith(APPLY_PATCH)) {
      return super.handlePatch(request);
    }
    applies.add(request.getPath());
    for (String namespace : refusingNamespaces) {
      if (request.getPath().startsWith("/api/v1/namespaces/" + namespace + "/")) {
        return new MockResponse()
            .setResponseCode(403)
            .setBody(
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                    + "\"reason\":\"Forbidden\",\"code\":403,\"message\":\"refused by the"
                    + " test's admission policy\"}");
      }
    }
    JsonNode applied = YAML.readTree(request.getUtf8Body());
    byte[] json = JSON.writeValueAsString(applied).getBytes(StandardCharsets.UTF_8);
    String path = request.getPath();
    String object = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
    boolean status = object.endsWith("/status");
    if (status) {
      // The status subresource never creates (apiextensions-apiserver etcd.go, StatusREST.Update
      // with forceAllowCreate false); the CRUD dispatcher then keeps everything but status.
      object = object.substring(0, object.length() - "/status".length());
      if (handleGet(object).code() == 404) {
        return new MockResponse()
            .setResponseCode(404)
            .setBody(
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                    + "\"reason\":\"NotFound\",\"code\":404,\"message\":\"not found\"}");
      }
    } else if (handleGet(object).code() == 404) {
      String collection = object.substring(0, object.lastIndexOf('/'));
      return handleCreate(
          new RecordedRequest(
              request.getHttpVersion(),
              HttpMethod.POST,
              collection,
              request.getHeaders().newBuilder().set("Content-Type", "application/json").build(),
              new Buffer(json)));
    }
    return super.handlePatch(
        new RecordedRequest(
            request.getHttpVersion(),
            HttpMethod.PATCH,
            status ? object + "/status" : path, // its status check reads the path without query
            request
                .getHeaders()
                .newBuilder()
                .set("Content-Type", "application/merge-patch+json")
                .build(),
            new Buffer(json)));
  }
}
