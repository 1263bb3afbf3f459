package io.kuik.sim.world.api;

/**
 * The first stage of the request pipeline. A request that no rule allows is refused with 403
 * Forbidden before admission runs.
 *
 * <p>Contract: pure with respect to the request; reads the cluster's RBAC objects from the {@link
 * ClusterState} it was built with; never throws for a well-formed request.
 */
@FunctionalInterface
public interface Authorizer {

  Decision authorize(RequestAttributes request);

  /** Allowed, or denied with the reason the API server would print in its 403 message. */
  record Decision(boolean allowed, String reason) {
    public static Decision allow(String reason) {
      return new Decision(true, reason);
    }

    public static Decision deny(String reason) {
      return new Decision(false, reason);
    }
  }

  Authorizer ALLOW_ALL = request -> Decision.allow("allow-all");
}
