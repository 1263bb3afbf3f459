package io.kuik.sim.world.watch;

import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import java.util.Objects;

/**
 * Who watches what: the watcher's name (what the trace shows, e.g. {@code syncer/secrets}), its
 * identity, the type and the namespace (null: all namespaces).
 */
public record WatchInfo(String name, Identity identity, ResourceType type, String namespace) {
  public WatchInfo {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(type, "type");
  }
}
