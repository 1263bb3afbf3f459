package io.kuik.kube;

import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Teaches fabric8's mock API server the {@code dryRun} query parameter, which its CRUD mode ignores
 * (it would store the object): a create sent with {@code dryRun=All} goes through the admission
 * steps a test registers, then through the store's existence check, and comes back 201 with the
 * object as it would have been stored (uid, creationTimestamp, a generated name), and nothing is
 * stored. Any other value of {@code dryRun} is 400, as the API server answers it
 * (https://kubernetes.io/docs/reference/using-api/api-concepts/#dry-run). Writes without {@code
 * dryRun} go to the CRUD dispatcher as before, through the same admission steps.
 */
public final class DryRunDispatcher extends Dispatcher {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /**
   * One admission step of the mock: may change the object (a mutating webhook) or refuse the
   * request with the API server's Status (a policy); returns null to let the request go on.
   */
  @FunctionalInterface
  public interface Admission {
    MockResponse admit(String collectionPath, ObjectNode object, boolean dryRun);
  }

  private final ServerSideApplyDispatcher crud;
  private final List<Admission> admissions = new CopyOnWriteArrayList<>();
  private final List<String> dryRuns = new CopyOnWriteArrayList<>();

  public DryRunDispatcher(ServerSideApplyDispatcher crud) {
    this.crud = crud;
  }

  /** Adds an admission step, run on every create after the ones added before it. */
  public DryRunDispatcher admit(Admission admission) {
    admissions.add(admission);
    return this;
  }

  /** The path and query of every dry-run create received so far, admitted or refused. */
  public List<String> dryRuns() {
    return List.copyOf(dryRuns);
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    String path = request.getPath();
    Map<String, String> query = ServerSideApplyDispatcher.query(path);
    String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
    if (!request.getMethod().equals("POST")) {
      return crud.dispatch(request);
    }
    String dryRun = query.get("dryRun");
    if (dryRun != null && !dryRun.equals("All")) {
      return status(
          400,
          "BadRequest",
          "dryRun: Unsupported value: \"" + dryRun + "\": supported values: \"All\"");
    }
    if (dryRun != null) {
      dryRuns.add(path);
    }
    ObjectNode object = (ObjectNode) JSON.readTree(request.getUtf8Body());
    for (Admission admission : admissions) {
      MockResponse refused = admission.admit(bare, object, dryRun != null);
      if (refused != null) {
        return refused;
      }
    }
    if (dryRun == null) {
      return crud.dispatch(
          new RecordedRequest(
              request.getHttpVersion(),
              io.fabric8.mockwebserver.dsl.HttpMethod.POST,
              path,
              request.getHeaders(),
              new io.fabric8.mockwebserver.http.Buffer(JSON.writeValueAsBytes(object))));
    }
    ObjectNode metadata = (ObjectNode) object.path("metadata");
    if (!metadata.hasNonNull("name") && metadata.hasNonNull("generateName")) {
      metadata.put(
          "name",
          metadata.get("generateName").asString() + UUID.randomUUID().toString().substring(0, 5));
    }
    String name = metadata.path("name").asString("");
    if (crud.handleGet(bare + "/" + name).code() == 200) {
      return status(409, "AlreadyExists", "\"" + name + "\" already exists");
    }
    metadata.put("uid", UUID.randomUUID().toString());
    metadata.put("creationTimestamp", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
    return new MockResponse()
        .setResponseCode(201)
        .setHeader("Content-Type", "application/json")
        .setBody(JSON.writeValueAsString(object));
  }

  /** A Status as the API server sends it. */
  public static MockResponse status(int code, String reason, String message) {
    ObjectNode status = JSON.createObjectNode();
    status.put("kind", "Status");
    status.put("apiVersion", "v1");
    status.putObject("metadata");
    status.put("status", "Failure");
    status.put("message", message);
    status.put("reason", reason);
    status.put("code", code);
    return new MockResponse()
        .setResponseCode(code)
        .setHeader("Content-Type", "application/json")
        .setBody(JSON.writeValueAsString(status));
  }

  /** The stored object at {@code path}, or a missing node. */
  public JsonNode stored(String path) {
    MockResponse answer = crud.handleGet(path);
    return answer.code() == 200 ? JSON.readTree(answer.getBody().readUtf8()) : JSON.missingNode();
  }

  @Override
  public void shutdown() {
    crud.shutdown();
  }

  @Override
  public void releaseResources() {
    crud.releaseResources();
  }
}
