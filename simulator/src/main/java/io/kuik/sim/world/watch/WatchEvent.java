package io.kuik.sim.world.watch;

import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * One watch event. With a label selector, an object that starts matching arrives as ADDED and one
 * that stops matching as DELETED, as the API server's watch cache sends them.
 */
public record WatchEvent(Type type, ObjectNode object) {

  /** The watch event types. */
  public enum Type {
    ADDED,
    MODIFIED,
    DELETED
  }

  public WatchEvent {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(object, "object");
  }
}
