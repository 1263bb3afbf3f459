package io.kuik.routing;

import io.fabric8.kubernetes.api.model.Pod;
import io.kuik.model.PullSecretGate;
import io.kuik.model.RewriteAnnotations;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns a {@link RoutingDecision} into the JSON Patch of the admission response, a pure function:
 * each rewritten container's image, the three annotations of {@link RewriteAnnotations} (each a
 * JSON object by container name: the images as submitted, {@code <Kind>/<name>}, and the reason),
 * the label {@link RewriteAnnotations#REWRITTEN_LABEL} that the syncer's informer selects, and the
 * {@code imagePullSecrets} references to add.
 *
 * <p>Labels, annotations and {@code imagePullSecrets} are written whole, the pod's own values
 * first: the fabric8 model reads an absent map or list as empty, so the patch cannot tell "absent"
 * (where {@code add .../-} fails) from "empty", and an {@code add} of the whole member works for
 * both.
 */
public final class PodPatch {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private PodPatch() {}

  /** The operations, empty when the decision changes nothing; the pod is never gated. */
  public static List<PatchOperation> operations(Pod pod, RoutingDecision decision) {
    return operations(pod, decision, false);
  }

  /**
   * The operations, with {@code gate}: a pod given a pull-secret reference also gets {@link
   * PullSecretGate} among its {@code spec.schedulingGates}, after its own (written whole, as the
   * references), so that it is not scheduled before the syncer released it.
   */
  public static List<PatchOperation> operations(Pod pod, RoutingDecision decision, boolean gate) {
    List<PatchOperation> operations = new ArrayList<>();
    List<ContainerDecision> rewrites = decision.rewrites();
    if (rewrites.isEmpty()) {
      return operations;
    }
    Map<String, String> originals = new LinkedHashMap<>();
    Map<String, String> rewrittenBy = new LinkedHashMap<>();
    Map<String, String> reasons = new LinkedHashMap<>();
    for (ContainerDecision rewrite : rewrites) {
      ContainerSlot container = rewrite.container();
      operations.add(
          PatchOperation.replace(container.imagePointer(), rewrite.chosen().image().toString()));
      originals.put(container.name(), container.image());
      rewrittenBy.put(container.name(), rewrite.chosen().by().toString());
      reasons.put(container.name(), rewrite.reason());
    }
    Map<String, String> annotations = new LinkedHashMap<>();
    if (pod.getMetadata() != null && pod.getMetadata().getAnnotations() != null) {
      annotations.putAll(pod.getMetadata().getAnnotations());
    }
    annotations.put(RewriteAnnotations.ORIGINAL_IMAGES, RewriteAnnotations.writeMap(originals));
    annotations.put(RewriteAnnotations.REWRITTEN_BY, RewriteAnnotations.writeMap(rewrittenBy));
    annotations.put(RewriteAnnotations.REASON, RewriteAnnotations.writeMap(reasons));
    Map<String, String> labels = new LinkedHashMap<>();
    if (pod.getMetadata() != null && pod.getMetadata().getLabels() != null) {
      labels.putAll(pod.getMetadata().getLabels());
    }
    labels.put(RewriteAnnotations.REWRITTEN_LABEL, RewriteAnnotations.REWRITTEN_LABEL_VALUE);
    if (pod.getMetadata() == null) {
      Map<String, Object> metadata = new LinkedHashMap<>();
      metadata.put("labels", labels);
      metadata.put("annotations", annotations);
      operations.add(PatchOperation.add("/metadata", metadata));
    } else {
      operations.add(PatchOperation.add("/metadata/labels", labels));
      operations.add(PatchOperation.add("/metadata/annotations", annotations));
    }
    if (!decision.addedPullSecrets().isEmpty()) {
      List<Map<String, String>> references = new ArrayList<>();
      if (pod.getSpec().getImagePullSecrets() != null) {
        pod.getSpec()
            .getImagePullSecrets()
            .forEach(
                reference ->
                    references.add(
                        reference == null || reference.getName() == null
                            ? Map.of()
                            : Map.of("name", reference.getName())));
      }
      decision.addedPullSecrets().forEach(name -> references.add(Map.of("name", name)));
      operations.add(PatchOperation.add("/spec/imagePullSecrets", references));
      if (gate) {
        List<Map<String, String>> gates = new ArrayList<>();
        if (pod.getSpec().getSchedulingGates() != null) {
          pod.getSpec()
              .getSchedulingGates()
              .forEach(
                  g ->
                      gates.add(
                          g == null || g.getName() == null
                              ? Map.of()
                              : Map.of("name", g.getName())));
        }
        if (!gates.contains(Map.of("name", PullSecretGate.NAME))) {
          gates.add(Map.of("name", PullSecretGate.NAME));
          operations.add(PatchOperation.add("/spec/schedulingGates", gates));
        }
      }
    }
    return operations;
  }

  /** The operations as the JSON array an AdmissionResponse carries (before base64). */
  public static String toJson(List<PatchOperation> operations) {
    List<Map<String, Object>> array = new ArrayList<>();
    for (PatchOperation operation : operations) {
      Map<String, Object> object = new LinkedHashMap<>();
      object.put("op", operation.op());
      object.put("path", operation.path());
      object.put("value", operation.value());
      array.add(object);
    }
    return JSON.writeValueAsString(array);
  }
}
