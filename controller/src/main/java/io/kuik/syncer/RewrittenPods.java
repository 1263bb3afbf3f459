package io.kuik.syncer;

import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RewrittenPod;
import io.kuik.model.Validated;
import io.kuik.ports.InformerView;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Which pairs a pod's change can touch: the resources it claims rewrote some of its containers; and
 * which pairs hold a Secret for the pods of their namespace.
 */
final class RewrittenPods {

  private RewrittenPods() {}

  /** The resources that rewrote some container of the pod, live or not. */
  static Set<ResourceId> rewriters(RewrittenPod pod) {
    Set<ResourceId> ids = new LinkedHashSet<>();
    pod.containers().values().forEach(c -> ids.add(c.rewriter()));
    return ids;
  }

  /**
   * Whether the start's pass will apply the pair: an Always resource's, or an OnFailure resource's
   * in a namespace where a pod it rewrote lives. Counting every pair the start's pass has left
   * would stretch a resync that comes during it for the pairs that never hold a Secret (three in
   * four at the scale harness's size).
   */
  static boolean mayHoldASecret(InformerView view, Pair pair) {
    Optional<Validated> found = view.routingResource(pair.resource());
    if (found.isEmpty() || !(found.get() instanceof Validated.Valid valid)) {
      return false;
    }
    if (valid.resource().rewritePolicy() == RewritePolicy.ALWAYS) {
      return true;
    }
    return view.pods(pair.namespace()).stream()
        .anyMatch(pod -> RewrittenPods.rewriters(pod).contains(pair.resource()));
  }
}
