package io.kuik.sim.world.object;

import io.kuik.sim.world.api.ResourceType;
import java.util.Comparator;
import java.util.Objects;

/** Which object: its type, namespace (null when cluster-scoped) and name. */
public record ObjectRef(ResourceType type, String namespace, String name)
    implements Comparable<ObjectRef> {

  private static final Comparator<ObjectRef> ORDER =
      Comparator.comparingInt((ObjectRef r) -> ResourceType.ALL.indexOf(r.type))
          .thenComparing(r -> r.namespace == null ? "" : r.namespace)
          .thenComparing(ObjectRef::name);

  public ObjectRef {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(name, "name");
  }

  public static ObjectRef of(ResourceType type, tools.jackson.databind.JsonNode object) {
    return new ObjectRef(type, Meta.namespace(object), Meta.name(object));
  }

  @Override
  public int compareTo(ObjectRef other) {
    return ORDER.compare(this, other);
  }

  /** {@code secrets team-a/x}, as the trace shows a target. */
  @Override
  public String toString() {
    return type.resource() + " " + (namespace == null ? name : namespace + "/" + name);
  }
}
