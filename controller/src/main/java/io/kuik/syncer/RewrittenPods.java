package io.kuik.syncer;

import io.kuik.model.Entry;
import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.model.ResourceId;
import io.kuik.model.RewrittenPod;
import io.kuik.model.RoutingResource;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * What the live pods of a namespace need from an OnFailure resource: for each container the
 * resource rewrote, the entry its current image falls under
 * (docs/behaviour.md#where-a-secret-lands).
 */
final class RewrittenPods {

  private RewrittenPods() {}

  /** The resources that rewrote some container of the pod, live or not. */
  static Set<ResourceId> rewriters(RewrittenPod pod) {
    Set<ResourceId> ids = new LinkedHashSet<>();
    pod.containers().values().forEach(c -> ids.add(c.rewriter()));
    return ids;
  }

  /** The entries of {@code resource} serving the containers it rewrote in the live pods. */
  static Set<Entry> entriesServing(RoutingResource resource, Collection<RewrittenPod> pods) {
    Set<Entry> entries = new LinkedHashSet<>();
    for (RewrittenPod pod : pods) {
      if (!pod.live()) {
        continue;
      }
      pod.containers()
          .values()
          .forEach(
              container -> {
                if (resource.id().equals(container.rewriter())) {
                  entryFor(resource, container.image()).ifPresent(entries::add);
                }
              });
    }
    return entries;
  }

  private static Optional<Entry> entryFor(RoutingResource resource, String image) {
    if (image == null) {
      return Optional.empty();
    }
    try {
      return resource.entryFor(ImageReference.parse(image));
    } catch (InvalidImageReferenceException unparsable) {
      return Optional.empty();
    }
  }
}
