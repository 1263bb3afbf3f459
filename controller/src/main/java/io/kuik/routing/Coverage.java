package io.kuik.routing;

import io.kuik.model.Entry;
import io.kuik.model.ImageReference;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResource;
import java.util.List;

/**
 * Which routing resources cover an image, before the pod and namespace selectors are applied: an
 * ImageAlternative when one of its entries matches the image by whole path segments, an ImageMirror
 * when the image is not already under its destination path. Resources with {@code rewritePolicy:
 * None} are never returned. {@link RoutingIndex} answers by lookup; a linear scan gives the same
 * set.
 *
 * <p>Contract: pure, thread-safe (implementations are immutable), no order promised.
 */
@FunctionalInterface
public interface Coverage {

  List<RoutingResource> covering(ImageReference image);

  /**
   * Whether {@code image} falls under {@code entry}, as {@link Entry#remainderOf} says; an index
   * may answer from the normalized paths it keeps instead of parsing the entry's path again.
   */
  default boolean fallsUnder(Entry entry, ImageReference image) {
    return entry.remainderOf(image).isPresent();
  }

  /**
   * Whether {@code resource} covers {@code image}, the rule every implementation applies. A mirror
   * covers every image except those already under its destination path
   * (docs/behaviour.md#routing-resources gives it no image filter; an image there is the mirror's
   * own copy, and mirroring it again would nest the path).
   */
  static boolean covers(RoutingResource resource, ImageReference image) {
    if (Band.of(resource).isEmpty()) {
      return false;
    }
    if (resource.id().kind() == RoutingKind.IMAGE_MIRROR) {
      return resource.entries().get(0).remainderOf(image).isEmpty();
    }
    return resource.entryFor(image).isPresent();
  }
}
