package io.kuik.routing;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What routing a pod needs to probe and decide: a plan per covered container, and the facts about
 * the pod and its namespace that the decision depends on.
 *
 * @param skipped why the whole pod is left alone (e.g. it was routed already), {@code null} when it
 *     is routed
 * @param containers the covered containers, in {@link ContainerSlot#of} order
 * @param notCovered containers that could be covered but are left as they are (pull policy {@code
 *     Never}, an image that does not parse), by name, with the reason
 * @param ownPullSecrets the names in the pod's {@code imagePullSecrets}, as submitted
 * @param injectionAllowed false in a namespace labelled {@code kuik.enix.io/pull-secrets-override:
 *     "false"}, where no reference is added
 */
public record PodPlan(
    String skipped,
    List<ContainerPlan> containers,
    Map<String, String> notCovered,
    List<String> ownPullSecrets,
    boolean injectionAllowed) {

  public PodPlan {
    containers = List.copyOf(containers);
    // Insertion order kept: the simulator's traces print it.
    notCovered = Collections.unmodifiableMap(new LinkedHashMap<>(notCovered));
    ownPullSecrets = List.copyOf(ownPullSecrets);
  }

  /** A pod routing leaves alone as a whole. */
  public static PodPlan skip(String why) {
    return new PodPlan(why, List.of(), Map.of(), List.of(), true);
  }
}
