package io.kuik.kube.syncer;

import io.kuik.model.ResourceId;
import io.kuik.model.Validated;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The routing resources as the core reads them: each ImageAlternative and ImageMirror converted
 * once per change into its {@link Validated} form. Confined to the core's thread, like the core.
 */
final class RoutingCache {

  private final Map<ResourceId, Validated> resources = new HashMap<>();

  void put(Validated resource) {
    resources.put(resource.id(), resource);
  }

  void remove(ResourceId id) {
    resources.remove(id);
  }

  Collection<Validated> all() {
    return List.copyOf(resources.values());
  }

  Optional<Validated> get(ResourceId id) {
    return Optional.ofNullable(resources.get(id));
  }

  int size() {
    return resources.size();
  }
}
