package io.kuik.sim.world;

/** The API server's status reasons with their HTTP codes, as metav1.StatusReason names them. */
public enum StatusReason {
  BAD_REQUEST(400, "BadRequest"),
  UNAUTHORIZED(401, "Unauthorized"),
  FORBIDDEN(403, "Forbidden"),
  NOT_FOUND(404, "NotFound"),
  ALREADY_EXISTS(409, "AlreadyExists"),
  CONFLICT(409, "Conflict"),
  GONE(410, "Expired"),
  REQUEST_ENTITY_TOO_LARGE(413, "RequestEntityTooLarge"),
  INVALID(422, "Invalid"),
  TOO_MANY_REQUESTS(429, "TooManyRequests"),
  INTERNAL_ERROR(500, "InternalError"),
  SERVICE_UNAVAILABLE(503, "ServiceUnavailable");

  private final int code;
  private final String reason;

  StatusReason(int code, String reason) {
    this.code = code;
    this.reason = reason;
  }

  public int code() {
    return code;
  }

  /** The reason as it appears in a Status object ("NotFound"). */
  public String reason() {
    return reason;
  }
}
