package io.kuik.sim.world.api;

import java.util.List;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * A read-only view of the stored objects, for the pipeline's own stages (authorizer, admission,
 * garbage collector). Reads through it are not requests: they need no identity and leave no trace.
 * Returned nodes are copies; changing them changes nothing stored.
 */
public interface ClusterState {

  Optional<ObjectNode> get(ResourceType type, String namespace, String name);

  /** Every object of the type, in one namespace, or in all when {@code namespace} is null. */
  List<ObjectNode> list(ResourceType type, String namespace);
}
