package io.kuik.routing;

/**
 * The three lists of a pod spec that hold containers, each routed alike
 * (docs/behaviour.md#routing-pods), in the order the webhook walks them. Container names are unique
 * across the three, so a name alone identifies a container in the pod annotations.
 */
public enum ContainerList {
  CONTAINERS("containers"),
  INIT_CONTAINERS("initContainers"),
  EPHEMERAL_CONTAINERS("ephemeralContainers");

  private final String field;

  ContainerList(String field) {
    this.field = field;
  }

  /** The field of {@code spec} holding the list, e.g. {@code initContainers}. */
  public String field() {
    return field;
  }
}
