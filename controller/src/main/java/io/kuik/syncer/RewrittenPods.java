package io.kuik.syncer;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EphemeralContainer;
import io.fabric8.kubernetes.api.model.Pod;
import io.kuik.model.Entry;
import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.model.ResourceId;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.RoutingResource;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the live pods of a namespace need from an OnFailure resource: for each container the
 * resource rewrote, the entry its current image falls under
 * (docs/behaviour.md#where-a-secret-lands).
 */
final class RewrittenPods {

  private RewrittenPods() {}

  /** A live pod exists and is neither Succeeded nor Failed. */
  static boolean isLive(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    boolean finished = "Succeeded".equals(phase) || "Failed".equals(phase);
    return !finished && pod.getMetadata().getDeletionTimestamp() == null;
  }

  /** The resources named in a pod's rewritten-by annotation, live or not. */
  static Set<ResourceId> rewriters(Pod pod) {
    Set<ResourceId> ids = new LinkedHashSet<>();
    for (String value : rewrittenBy(pod).values()) {
      ResourceId.parse(value).ifPresent(ids::add);
    }
    return ids;
  }

  /** The entries of {@code resource} serving the containers it rewrote in the live pods. */
  static Set<Entry> entriesServing(RoutingResource resource, Collection<Pod> pods) {
    Set<Entry> entries = new LinkedHashSet<>();
    String rewriter = resource.id().toString();
    for (Pod pod : pods) {
      if (!isLive(pod)) {
        continue;
      }
      Map<String, String> images = currentImages(pod);
      rewrittenBy(pod)
          .forEach(
              (container, by) -> {
                if (rewriter.equals(by)) {
                  entryFor(resource, images.get(container)).ifPresent(entries::add);
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

  private static Map<String, String> rewrittenBy(Pod pod) {
    return RewriteAnnotations.readMap(
        pod.getMetadata().getAnnotations(), RewriteAnnotations.REWRITTEN_BY);
  }

  private static Map<String, String> currentImages(Pod pod) {
    Map<String, String> images = new HashMap<>();
    if (pod.getSpec() == null) {
      return images;
    }
    for (Container c : pod.getSpec().getInitContainers()) {
      images.put(c.getName(), c.getImage());
    }
    for (Container c : pod.getSpec().getContainers()) {
      images.put(c.getName(), c.getImage());
    }
    for (EphemeralContainer c : pod.getSpec().getEphemeralContainers()) {
      images.put(c.getName(), c.getImage());
    }
    return images;
  }
}
