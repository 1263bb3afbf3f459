package io.kuik.sim.world.api;

import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * What admission sees of a write: the request's attributes, the operation, the object as it would
 * be stored (null for DELETE) and the stored object before the write (null for CREATE).
 */
public record AdmissionRequest(
    RequestAttributes attributes, Operation operation, ObjectNode object, ObjectNode oldObject) {

  public AdmissionRequest {
    Objects.requireNonNull(attributes, "attributes");
    Objects.requireNonNull(operation, "operation");
  }
}
