package io.kuik.model;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What the syncer keeps of a pod the webhook rewrote
 * (docs/decisions/0032-only-rewritten-pods-and-slim-records.md): where it is, whether it is live,
 * and for each container a routing resource rewrote, that resource and the image the container runs
 * now. A few hundred bytes instead of the whole Pod; the informers' edges build it from what they
 * receive, with {@link #of}.
 *
 * @param uid the pod's {@code metadata.uid}: what an Event on it names, and what tells a pod from
 *     another of the same name (null when unknown)
 * @param phase the pod's {@code status.phase}, null when it has none yet
 * @param terminating whether the pod carries a deletionTimestamp
 * @param containers by container name (init and ephemeral containers included), the rewritten ones
 * @param gate where {@link PullSecretGate} is in the pod's {@code spec.schedulingGates}, -1 when it
 *     is not there
 */
public record RewrittenPod(
    String namespace,
    String name,
    String uid,
    String phase,
    boolean terminating,
    Map<String, RewrittenContainer> containers,
    int gate) {

  /** One container a resource rewrote: which resource, and the image it runs now (may be null). */
  public record RewrittenContainer(ResourceId rewriter, String image) {
    public RewrittenContainer {
      Objects.requireNonNull(rewriter, "rewriter");
    }
  }

  public RewrittenPod {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    phase = phase == null ? null : knownPhase(phase);
    containers = Map.copyOf(containers);
    gate = Math.max(-1, gate);
  }

  /** A pod without the gate. */
  public RewrittenPod(
      String namespace,
      String name,
      String uid,
      String phase,
      boolean terminating,
      Map<String, RewrittenContainer> containers) {
    this(namespace, name, uid, phase, terminating, containers, -1);
  }

  /** Whether the pod still waits on {@link PullSecretGate}: it is not scheduled yet. */
  public boolean gated() {
    return gate >= 0;
  }

  /**
   * The record of a pod from its parts: its annotations (only {@code kuik.enix.io/rewritten-by} is
   * read, leniently: a malformed one reads as no rewrite) and the images of its containers by name.
   * A container named in the annotation with a value that names no routing resource is left out.
   */
  public static RewrittenPod of(
      String namespace,
      String name,
      String uid,
      String phase,
      boolean terminating,
      Map<String, String> annotations,
      Map<String, String> imagesByContainer,
      int gate) {
    Map<String, RewrittenContainer> containers = new LinkedHashMap<>();
    RewriteAnnotations.readMap(annotations, RewriteAnnotations.REWRITTEN_BY)
        .forEach(
            (container, by) ->
                ResourceId.parse(by)
                    .ifPresent(
                        id ->
                            containers.put(
                                container,
                                new RewrittenContainer(id, imagesByContainer.get(container)))));
    return new RewrittenPod(namespace, name, uid, phase, terminating, containers, gate);
  }

  /**
   * A live pod exists and is neither Succeeded nor Failed (docs/behaviour.md#where-a-secret-lands).
   */
  public boolean live() {
    return !terminating && !"Succeeded".equals(phase) && !"Failed".equals(phase);
  }

  /** The five phases as shared constants, so that a hundred thousand records hold no copies. */
  private static String knownPhase(String phase) {
    switch (phase) {
      case "Pending":
        return "Pending";
      case "Running":
        return "Running";
      case "Succeeded":
        return "Succeeded";
      case "Failed":
        return "Failed";
      case "Unknown":
        return "Unknown";
      default:
        return phase;
    }
  }
}
