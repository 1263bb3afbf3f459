package io.kuik.ports;

import io.kuik.model.ResourceId;

/**
 * Records a Kubernetes Event on a routing resource (cluster-scoped, so the Event lands in the
 * {@code default} namespace as kubectl expects), or on a pod (in the pod's namespace).
 *
 * <p>Contract: fire and forget; never blocks for long, never throws; an Event that cannot be
 * recorded is logged and dropped by the driver. Messages never hold credential values.
 */
@FunctionalInterface
public interface EventRecorder {

  void record(ResourceId resource, String uid, Type type, String reason, String message);

  /**
   * An Event on a pod, in its namespace; {@code uid} (the pod's, may be null) lets {@code kubectl
   * describe pod} find it. By default none is recorded: a recorder that only predicts what the
   * syncer would write (kuik explain) has no pod to tell.
   */
  default void recordOnPod(
      String namespace, String pod, String uid, Type type, String reason, String message) {}

  enum Type {
    Normal,
    Warning
  }
}
