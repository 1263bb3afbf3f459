package io.kuik.sim.world.validation;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Pod rules the simulated stories rely on: containers are required, named and have an image;
 * once created, a pod's spec may change only in its images, activeDeadlineSeconds and tolerations,
 * and its scheduling gates may only be removed.
 *
 * <p>Scheduling gates follow Kubernetes' pod validation
 * (https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go,
 * {@code validateSchedulingGates} and {@code validateOnlyDeletedSchedulingGates}): each names a
 * gate once; a pod may carry them from its creation (by its author or a mutating webhook), and an
 * update may remove any of them in any order but add none, "only deletion is allowed"
 * (https://kubernetes.io/docs/concepts/scheduling-eviction/pod-scheduling-readiness/). A pod is
 * created either placed on a node ({@code spec.nodeName}) or gated, never both: {@code
 * ValidatePodCreate} refuses the pair, "spec.nodeName: Forbidden: cannot be set until all
 * schedulingGates have been cleared" (same file), which is what {@code kubectl debug node/…} and
 * controllers that place their pods themselves (DaemonSets before 1.12, static-like operators)
 * create.
 */
public final class PodValidation {

  private PodValidation() {}

  public static FieldErrors validate(ObjectNode pod) {
    FieldErrors errors = new FieldErrors();
    JsonNode containers = pod.path("spec").path("containers");
    if (!containers.isArray() || containers.isEmpty()) {
      errors.required("spec.containers", "");
    }
    containers(pod.path("spec").path("containers"), "spec.containers", errors);
    containers(pod.path("spec").path("initContainers"), "spec.initContainers", errors);
    Set<String> gates = new HashSet<>();
    for (String gate : gates(pod)) {
      if (gate.isEmpty()) {
        errors.required("spec.schedulingGates.name", "");
      } else if (!gates.add(gate)) {
        errors.duplicate("spec.schedulingGates", gate);
      }
    }
    return errors;
  }

  /** A pod's creation: {@link #validate}, and no node named on a gated pod. */
  public static FieldErrors validateCreate(ObjectNode pod) {
    FieldErrors errors = validate(pod);
    if (!pod.path("spec").path("nodeName").asString("").isEmpty() && !gates(pod).isEmpty()) {
      errors.forbidden(
          "spec.nodeName", "cannot be set until all schedulingGates have been cleared");
    }
    return errors;
  }

  /** The names of the pod's scheduling gates, in order; empty when it has none. */
  public static List<String> gates(JsonNode pod) {
    List<String> names = new ArrayList<>();
    for (JsonNode gate : pod.path("spec").path("schedulingGates")) {
      names.add(gate.path("name").asString(""));
    }
    return names;
  }

  public static FieldErrors validateUpdate(ObjectNode pod, ObjectNode old) {
    FieldErrors errors = validate(pod);
    List<String> before = gates(old);
    for (String gate : gates(pod)) {
      if (!before.contains(gate)) {
        errors.forbidden(
            "spec.schedulingGates",
            "only deletion is allowed, but found new scheduling gate '" + gate + "'");
      }
    }
    if (!mutableFieldsBlanked(pod).equals(mutableFieldsBlanked(old))) {
      errors.forbidden(
          "spec",
          "pod updates may not change fields other than `spec.containers[*].image`,"
              + "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
              + "`spec.tolerations` (only additions to existing tolerations),"
              + "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was"
              + " previously negative)");
    }
    return errors;
  }

  private static void containers(JsonNode list, String path, FieldErrors errors) {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      JsonNode c = list.get(i);
      String at = path + "[" + i + "]";
      String name = c.path("name").asString("");
      if (name.isEmpty()) {
        errors.required(at + ".name", "");
      } else {
        Names.dnsLabel(name).forEach(m -> errors.invalid(at + ".name", name, m));
        if (!names.add(name)) {
          errors.invalid(at + ".name", name, "Duplicate value");
        }
      }
      if (c.path("image").asString("").isEmpty()) {
        errors.required(at + ".image", "");
      }
    }
  }

  private static JsonNode mutableFieldsBlanked(ObjectNode pod) {
    JsonNode spec = pod.path("spec");
    if (!(spec instanceof ObjectNode)) {
      return spec;
    }
    ObjectNode copy = ((ObjectNode) spec).deepCopy();
    for (String list : new String[] {"containers", "initContainers"}) {
      if (copy.get(list) instanceof ArrayNode array) {
        for (JsonNode c : array) {
          if (c instanceof ObjectNode container) {
            container.remove("image");
          }
        }
      }
    }
    copy.remove("activeDeadlineSeconds");
    copy.remove("tolerations");
    copy.remove("terminationGracePeriodSeconds");
    copy.remove("schedulingGates");
    return copy;
  }
}
