package io.kuik.sim.world;

import io.kuik.sim.trace.Stage;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Kinds;
import java.util.List;

/**
 * A request the API server refused, with the code, reason and message a kubectl user would see
 * (e.g. {@code secrets "x" is forbidden: User "..." cannot get resource "secrets" in API group ""
 * in the namespace "team-a"}), and the stage of the API server that refused it (the handler unless
 * a stage says otherwise: see {@link #at}). Messages never carry a Secret's values.
 */
public final class ApiException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final StatusReason reason;
  private final List<String> causes;
  private final Stage stage;

  public ApiException(StatusReason reason, String message) {
    this(reason, message, List.of());
  }

  public ApiException(StatusReason reason, String message, List<String> causes) {
    this(reason, message, causes, Stage.HANDLER);
  }

  private ApiException(StatusReason reason, String message, List<String> causes, Stage stage) {
    super(message);
    this.reason = reason;
    this.causes = List.copyOf(causes);
    this.stage = stage;
  }

  /** The same refusal, as the given stage of the request's path refused it. */
  public ApiException at(Stage refusedAt) {
    return refusedAt == stage ? this : new ApiException(reason, getMessage(), causes, refusedAt);
  }

  /** The stage that refused the request. */
  public Stage stage() {
    return stage;
  }

  public int code() {
    return reason.code();
  }

  public String reason() {
    return reason.reason();
  }

  public StatusReason status() {
    return reason;
  }

  /** For 422 Invalid: each field error, e.g. {@code data[.dockerconfigjson]: Required value}. */
  public List<String> causes() {
    return causes;
  }

  public static ApiException notFound(ResourceType type, String name) {
    return new ApiException(
        StatusReason.NOT_FOUND, Kinds.qualifiedResource(type) + " \"" + name + "\" not found");
  }

  public static ApiException alreadyExists(ResourceType type, String name) {
    return new ApiException(
        StatusReason.ALREADY_EXISTS,
        Kinds.qualifiedResource(type) + " \"" + name + "\" already exists");
  }

  /** 403 with the resource and name in front, as admission.NewForbidden and RBAC print it. */
  public static ApiException forbidden(ResourceType type, String name, String why) {
    String subject =
        name == null || name.isEmpty()
            ? Kinds.qualifiedResource(type) + " is forbidden: "
            : Kinds.qualifiedResource(type) + " \"" + name + "\" is forbidden: ";
    return new ApiException(StatusReason.FORBIDDEN, subject + why);
  }

  public static ApiException conflict(ResourceType type, String name, String why) {
    return new ApiException(
        StatusReason.CONFLICT,
        "Operation cannot be fulfilled on "
            + Kinds.qualifiedResource(type)
            + " \""
            + name
            + "\": "
            + why);
  }

  /** The optimistic-concurrency failure of a stale resourceVersion. */
  public static ApiException stale(ResourceType type, String name) {
    return conflict(
        type,
        name,
        "the object has been modified; please apply your changes to the latest version and try"
            + " again");
  }

  /** 422 with every field error, aggregated the way the API server prints them. */
  public static ApiException invalid(ResourceType type, String name, List<String> errors) {
    String aggregate = errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]";
    return new ApiException(
        StatusReason.INVALID,
        Kinds.qualifiedKind(type) + " \"" + name + "\" is invalid: " + aggregate,
        errors);
  }

  public static ApiException badRequest(String message) {
    return new ApiException(StatusReason.BAD_REQUEST, message);
  }

  public static ApiException internal(String message) {
    return new ApiException(StatusReason.INTERNAL_ERROR, "Internal error occurred: " + message);
  }
}
