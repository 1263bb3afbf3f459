package io.kuik.ports;

import io.kuik.model.ResourceId;

/**
 * Records a Kubernetes Event on a routing resource (cluster-scoped, so the Event lands in the
 * {@code default} namespace as kubectl expects).
 *
 * <p>Contract: fire and forget; never blocks for long, never throws; an Event that cannot be
 * recorded is logged and dropped by the driver. Messages never hold credential values.
 */
@FunctionalInterface
public interface EventRecorder {

  void record(ResourceId resource, String uid, Type type, String reason, String message);

  enum Type {
    Normal,
    Warning
  }
}
