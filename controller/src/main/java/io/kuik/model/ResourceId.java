package io.kuik.model;

import java.util.Objects;

/**
 * The identity of a routing resource: its kind and name (both kinds are cluster-scoped). Secret
 * names and the {@code kuik.enix.io/rewritten-by} annotation derive from this alone, never from the
 * resource's configuration (DESIGN.md §2.2).
 */
public record ResourceId(RoutingKind kind, String name) {

  public ResourceId {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
  }

  /**
   * {@code <Kind>/<name>}, e.g. {@code ImageMirror/prod-mirror}, as the pod annotations write it.
   */
  @Override
  public String toString() {
    return kind.kind() + "/" + name;
  }
}
