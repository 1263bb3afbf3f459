package io.kuik.sim.world;

import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/** A list response: copies of the items in key order, and the store's resourceVersion then. */
public record ObjectList(List<ObjectNode> items, String resourceVersion) {
  public ObjectList {
    items = List.copyOf(items);
  }
}
