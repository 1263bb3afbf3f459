package io.kuik.routing;

import io.kuik.model.Entry;
import io.kuik.model.ImageReference;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingResource;
import java.util.Objects;

/**
 * One image a container could run, and what offers it: the original image ({@code resource} and
 * {@code entry} {@code null}), or the entry of a routing resource that the container would be
 * rewritten to.
 */
public record Candidate(ImageReference image, Band band, RoutingResource resource, Entry entry) {

  public Candidate {
    Objects.requireNonNull(image, "image");
    Objects.requireNonNull(band, "band");
    if ((band == Band.ORIGINAL) != (resource == null) || (resource == null) != (entry == null)) {
      throw new IllegalArgumentException(
          "the original has no resource or entry, every other candidate has both");
    }
  }

  public static Candidate original(ImageReference image) {
    return new Candidate(image, Band.ORIGINAL, null, null);
  }

  public boolean isOriginal() {
    return resource == null;
  }

  /** The resource that offers this candidate; {@code null} for the original. */
  public ResourceId by() {
    return resource == null ? null : resource.id();
  }

  @Override
  public String toString() {
    return isOriginal() ? image + " (original)" : image + " (" + by() + " " + entry.field() + ")";
  }
}
