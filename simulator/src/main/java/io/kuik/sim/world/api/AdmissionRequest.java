package io.kuik.sim.world.api;

import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * What admission sees of a write: the request's attributes, the operation, the object as it would
 * be stored (null for DELETE), the stored object before the write (null for CREATE), and whether it
 * is a dry run, which admission runs as for any write and whose result is not stored
 * (https://kubernetes.io/docs/reference/using-api/api-concepts/#dry-run; AdmissionReview's {@code
 * request.dryRun}).
 */
public record AdmissionRequest(
    RequestAttributes attributes,
    Operation operation,
    ObjectNode object,
    ObjectNode oldObject,
    boolean dryRun) {

  public AdmissionRequest {
    Objects.requireNonNull(attributes, "attributes");
    Objects.requireNonNull(operation, "operation");
  }

  /** A write that is not a dry run. */
  public AdmissionRequest(
      RequestAttributes attributes, Operation operation, ObjectNode object, ObjectNode oldObject) {
    this(attributes, operation, object, oldObject, false);
  }
}
