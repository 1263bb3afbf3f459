package io.kuik.model;

import java.util.Objects;
import java.util.Optional;

/**
 * The identity of a routing resource: its kind and name (both kinds are cluster-scoped). Secret
 * names and the {@code kuik.enix.io/rewritten-by} annotation derive from this alone, never from the
 * resource's configuration (docs/behaviour.md#secret-names).
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

  /** Reads {@code <Kind>/<name>}; empty for anything else, such as an annotation edited by hand. */
  public static Optional<ResourceId> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    int slash = text.indexOf('/');
    if (slash <= 0 || slash == text.length() - 1) {
      return Optional.empty();
    }
    String kind = text.substring(0, slash);
    String name = text.substring(slash + 1);
    for (RoutingKind candidate : RoutingKind.values()) {
      if (candidate.kind().equals(kind)) {
        return Optional.of(new ResourceId(candidate, name));
      }
    }
    return Optional.empty();
  }
}
