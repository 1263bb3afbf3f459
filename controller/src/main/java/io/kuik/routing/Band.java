package io.kuik.routing;

import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResource;
import java.util.Optional;

/**
 * Where a candidate sits in a container's list (docs/behaviour.md#routing-pods), in probe order:
 * {@code Always} mirrors, {@code Always} alternatives, the original image, {@code OnFailure}
 * alternatives, {@code OnFailure} mirrors. The enum's order is the list's order.
 */
public enum Band {
  ALWAYS_MIRROR,
  ALWAYS_ALTERNATIVE,
  ORIGINAL,
  ON_FAILURE_ALTERNATIVE,
  ON_FAILURE_MIRROR;

  /** The band of a resource's candidates; empty under {@code rewritePolicy: None}, never routed. */
  public static Optional<Band> of(RoutingResource resource) {
    boolean mirror = resource.id().kind() == RoutingKind.IMAGE_MIRROR;
    if (resource.rewritePolicy() == RewritePolicy.ALWAYS) {
      return Optional.of(mirror ? ALWAYS_MIRROR : ALWAYS_ALTERNATIVE);
    }
    if (resource.rewritePolicy() == RewritePolicy.ON_FAILURE) {
      return Optional.of(mirror ? ON_FAILURE_MIRROR : ON_FAILURE_ALTERNATIVE);
    }
    return Optional.empty();
  }

  /** Whether candidates of this band are tried before the original image. */
  public boolean beforeOriginal() {
    return compareTo(ORIGINAL) < 0;
  }
}
