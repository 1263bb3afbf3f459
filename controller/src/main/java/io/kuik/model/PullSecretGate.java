package io.kuik.model;

import java.util.List;
import java.util.Map;

/**
 * The scheduling gate that holds a rewritten pod until its pull secret is in place
 * (docs/decisions/0052-pull-secret-first.md): the webhook adds it when the pod is created, and the
 * syncer, or the webhook's bound, removes it. Kubernetes lets a gate be set only at creation and
 * only be removed afterwards, and never schedules a pod that still has one
 * (https://kubernetes.io/docs/concepts/scheduling-eviction/pod-scheduling-readiness/).
 */
public final class PullSecretGate {

  /** The gate's name in {@code spec.schedulingGates}. */
  public static final String NAME = "kuik.enix.io/pull-secret";

  private PullSecretGate() {}

  /** Where the gate is among {@code gates} (their names, in order); -1 when it is not there. */
  public static int indexIn(List<String> gates) {
    return gates == null ? -1 : gates.indexOf(NAME);
  }

  /**
   * The JSON Patch (RFC 6902) that removes the gate at {@code index} of the pod {@code uid}, and
   * nothing else: it applies only if the pod is still that one and the gate is still there, so a
   * pod re-created under the same name, or a gate someone else removed, makes it fail (422) rather
   * than remove another gate.
   */
  public static List<Map<String, Object>> removal(String uid, int index) {
    if (index < 0) {
      throw new IllegalArgumentException("no gate to remove at " + index);
    }
    String at = "/spec/schedulingGates/" + index;
    return List.of(
        Map.of("op", "test", "path", "/metadata/uid", "value", uid),
        Map.of("op", "test", "path", at + "/name", "value", NAME),
        Map.of("op", "remove", "path", at));
  }
}
