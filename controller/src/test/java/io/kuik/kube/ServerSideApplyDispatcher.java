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
 * <p>Field ownership and conflicts are not modelled: the syncer always forces. Create-or-merge is
 * two steps under the dispatcher's lock each, not one; the syncer sends one apply at a time.
 */
final class ServerSideApplyDispatcher extends KubernetesCrudDispatcher {

  static final String APPLY_PATCH = "application/apply-patch+yaml";
  private static final YAMLMapper YAML = YAMLMapper.builder().build();
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final Set<String> refusingNamespaces = ConcurrentHashMap.newKeySet();

  ServerSideApplyDispatcher(List<CustomResourceDefinitionContext> customResources) {
    super(customResources);
  }

  /**
   * From now on, applies in {@code namespace} are refused with 403, as an admission policy would.
   */
  void refuseAppliesIn(String namespace) {
    refusingNamespaces.add(namespace);
  }

  @Override
  public MockResponse handlePatch(RecordedRequest request) {
    String type = request.getHeader("Content-Type");
    if (type == null || !type.startsWith(APPLY_PATCH)) {
      return super.handlePatch(request);
    }
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
    if (handleGet(object).code() == 404) {
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
            path,
            request
                .getHeaders()
                .newBuilder()
                .set("Content-Type", "application/merge-patch+json")
                .build(),
            new Buffer(json)));
  }
}
