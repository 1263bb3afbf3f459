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

  /** The same request under another verb, as the API server asks a second question of RBAC. */
  public RequestAttributes withVerb(Verb other) {
    return new RequestAttributes(identity, other, type, namespace, name, subresource);
  }

  /** The same request with another name, e.g. none for a POST that creates. */
  public RequestAttributes withName(String other) {
    return new RequestAttributes(identity, verb, type, namespace, other, subresource);
  }
}
