package io.kuik.syncer;

import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingResource;
import io.kuik.model.Validated;
import io.kuik.ports.InformerView;
import java.util.Optional;

/** What the core's dispatch ({@link SecretSyncer}) asks of the informers' view, beside a pair. */
final class ViewReads {

  private ViewReads() {}

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

  /** The resource, when it is valid and OnFailure. */
  static Optional<RoutingResource> onFailureResource(InformerView view, ResourceId id) {
    return view.routingResource(id)
        .filter(Validated.Valid.class::isInstance)
        .map(v -> ((Validated.Valid) v).resource())
        .filter(r -> r.rewritePolicy() == RewritePolicy.ON_FAILURE);
  }

  /** Whether one of the resource's entries takes its credential from the Secret {@code name}. */
  static boolean refersTo(RoutingResource resource, String secretName) {
    return resource.entries().stream()
        .anyMatch(e -> e.auth() != null && secretName.equals(e.auth().secretRefName()));
  }
}
