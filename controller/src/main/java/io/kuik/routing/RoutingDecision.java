package io.kuik.routing;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of routing one pod, before it becomes a patch ({@link PodPatch}).
 *
 * @param skipped why the whole pod is left alone, {@code null} when it was routed
 * @param containers one decision per covered container, in {@link ContainerSlot#of} order
 * @param notCovered containers left alone before any probe, by name, with the reason
 * @param addedPullSecrets the {@code kuik-inject-*} names to append to {@code imagePullSecrets}, in
 *     the order of the containers that need them; never one the pod already lists
 */
public record RoutingDecision(
    String skipped,
    List<ContainerDecision> containers,
    Map<String, String> notCovered,
    List<String> addedPullSecrets) {

  public RoutingDecision {
    containers = List.copyOf(containers);
    notCovered = Collections.unmodifiableMap(new LinkedHashMap<>(notCovered));
    addedPullSecrets = List.copyOf(addedPullSecrets);
  }

  /** The decisions that change an image. */
  public List<ContainerDecision> rewrites() {
    return containers.stream().filter(ContainerDecision::rewrites).toList();
  }

  /** Whether the pod needs a patch at all. */
  public boolean changesPod() {
    return containers.stream().anyMatch(ContainerDecision::rewrites);
  }
}
