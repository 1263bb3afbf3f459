package io.kuik.sim.world.api;

import java.util.Objects;

/**
 * What the authorizer sees of a request: who, which verb, on which resource type, namespace and
 * name (either may be null: a cluster-wide list has neither), and an optional subresource.
 */
public record RequestAttributes(
    Identity identity,
    Verb verb,
    ResourceType type,
    String namespace,
    String name,
    String subresource) {

  public RequestAttributes {
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(verb, "verb");
    Objects.requireNonNull(type, "type");
  }
}
