package io.kuik.kube;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
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
 *
 * <p>A list with {@code limit} is served in pages, as the API server serves it
 * (https://kubernetes.io/docs/reference/using-api/api-concepts/#retrieving-large-results-sets-in-chunks):
 * at most {@code limit} items, and {@code metadata.continue} with {@code remainingItemCount} while
 * more remain; the pages after the first come from the snapshot the first page was cut from, as the
 * API server serves them from the first page's resourceVersion. A token that was never issued is
 * answered 410 Gone. Label selectors are the CRUD dispatcher's own.
 */
public class ServerSideApplyDispatcher extends KubernetesCrudDispatcher {

  static final String APPLY_PATCH = "application/apply-patch+yaml";
  private static final YAMLMapper YAML = YAMLMapper.builder().build();
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final Set<String> refusingNamespaces = ConcurrentHashMap.newKeySet();
  private final Map<String, java.time.Duration> slowLists = new ConcurrentHashMap<>();
  private final List<String> applies = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final Map<String, List<JsonNode>> snapshots = new ConcurrentHashMap<>();

  protected ServerSideApplyDispatcher(List<CustomResourceDefinitionContext> customResources) {
    super(customResources);
  }

  /**
   * Serving both routing kinds from the chart's own CRDs, so that the status subresource is served
   * exactly when they declare it.
   */
  public static ServerSideApplyDispatcher withRoutingKinds() {
    return new ServerSideApplyDispatcher(routingKinds());
  }

  /** Both routing kinds as the chart's own CRDs declare them. */
  public static List<CustomResourceDefinitionContext> routingKinds() {
    return List.of(chartCrd("imagealternatives"), chartCrd("imagemirrors"));
  }

  private static CustomResourceDefinitionContext chartCrd(String plural) {
    Path file =
        Path.of(System.getProperty("basedir", "."))
            .resolve("../chart/files/crds/" + plural + ".kuik.enix.io.yaml")
            .normalize();
    try {
      return CustomResourceDefinitionContext.fromCrd(
          new KubernetesSerialization()
              .unmarshal(Files.readString(file), CustomResourceDefinition.class));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Stores {@code json} as if created in {@code collection} (e.g. {@code
   * /api/v1/namespaces/a/pods}) without a request and without watch events: for filling a cluster
   * of many thousand objects before anyone watches, which one create at a time (each a scan of the
   * whole store) would take hours to do. The object must carry its own metadata (resourceVersion,
   * uid, creationTimestamp).
   */
  public void seed(String collection, String json) {
    AttributeSet key =
        AttributeSet.merge(
            attributeExtractor.fromPath(collection), attributeExtractor.fromResource(json));
    map.put(key, json);
  }

  /**
   * A get, list or watch of {@code path} without pages, as the CRUD dispatcher answers it: every
   * read goes through here, so that a subclass may serve it from an index.
   */
  protected MockResponse unpaged(String path) {
    return super.handleGet(path);
  }

  @Override
  public MockResponse handleGet(String path) {
    MockResponse answer = paged(path);
    Map<String, String> query = query(path);
    if (!query.containsKey("watch")) {
      slowLists.forEach(
          (resource, delay) -> {
            if (path.contains("/" + resource + "?") || path.endsWith("/" + resource)) {
              answer.setBodyDelay(delay);
            }
          });
    }
    return answer;
  }

  /** From now on, every list of {@code resource} (a plural, e.g. imagemirrors) answers late. */
  void slowListsOf(String resource, java.time.Duration delay) {
    slowLists.put(resource, delay);
  }

  private MockResponse paged(String path) {
    Map<String, String> query = query(path);
    String limit = query.get("limit");
    if (limit == null || query.containsKey("watch")) {
      return unpaged(path);
    }
    String token = query.get("continue");
    List<JsonNode> items;
    String resourceVersion;
    if (token == null || token.isEmpty()) {
      MockResponse whole = unpaged(withoutPaging(path));
      if (whole.code() != 200) {
        return whole;
      }
      JsonNode list = JSON.readTree(whole.getBody().readUtf8());
      if (!list.has("items")) {
        return new MockResponse().setResponseCode(200).setBody(JSON.writeValueAsString(list));
      }
      items = new ArrayList<>();
      list.get("items").forEach(items::add);
      resourceVersion = list.path("metadata").path("resourceVersion").asString("");
    } else {
      items = snapshots.remove(token);
      if (items == null) {
        return gone();
      }
      resourceVersion = token.substring(0, token.indexOf(':'));
    }
    int size = Math.max(1, Integer.parseInt(limit));
    ObjectNode page = JSON.createObjectNode();
    page.put("apiVersion", "v1");
    page.put("kind", "List");
    ObjectNode metadata = page.putObject("metadata");
    metadata.put("resourceVersion", resourceVersion);
    ArrayNode out = page.putArray("items");
    items.subList(0, Math.min(size, items.size())).forEach(out::add);
    if (items.size() > size) {
      List<JsonNode> rest = new ArrayList<>(items.subList(size, items.size()));
      String next = resourceVersion + ":" + UUID.randomUUID();
      snapshots.put(next, rest);
      metadata.put("continue", next);
      metadata.put("remainingItemCount", rest.size());
    }
    return new MockResponse()
        .setResponseCode(200)
        .setHeader("Content-Type", "application/json")
        .setBody(JSON.writeValueAsString(page));
  }

  private static MockResponse gone() {
    return new MockResponse()
        .setResponseCode(410)
        .setBody(
            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                + "\"reason\":\"Expired\",\"code\":410,\"message\":\"the provided continue"
                + " parameter is too old or was never issued\"}");
  }

  /** The query parameters of {@code path}, decoded; the last of a repeated name wins. */
  protected static Map<String, String> query(String path) {
    Map<String, String> parameters = new LinkedHashMap<>();
    int start = path.indexOf('?');
    if (start < 0) {
      return parameters;
    }
    for (String pair : path.substring(start + 1).split("&")) {
      int equals = pair.indexOf('=');
      String name = equals < 0 ? pair : pair.substring(0, equals);
      String value = equals < 0 ? "" : pair.substring(equals + 1);
      parameters.put(
          URLDecoder.decode(name, StandardCharsets.UTF_8),
          URLDecoder.decode(value, StandardCharsets.UTF_8));
    }
    return parameters;
  }

  private static String withoutPaging(String path) {
    StringBuilder kept = new StringBuilder();
    int start = path.indexOf('?');
    for (String pair : path.substring(start + 1).split("&")) {
      if (pair.startsWith("limit=") || pair.startsWith("continue=")) {
        continue;
      }
      kept.append(kept.length() == 0 ? "?" : "&").append(pair);
    }
    return path.substring(0, start) + kept;
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
