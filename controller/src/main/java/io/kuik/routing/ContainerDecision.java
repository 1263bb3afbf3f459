package io.kuik.routing;

import io.kuik.model.ImageReference;
import java.util.Objects;

/**
 * What routing decided for one covered container: the candidate it runs ({@code null} when no
 * candidate answered, and the container keeps its image) and a short reason for people reading the
 * pod. The winning resource and entry are the chosen candidate's.
 */
public record ContainerDecision(
    ContainerSlot container, ImageReference original, Candidate chosen, String reason) {

  public ContainerDecision {
    Objects.requireNonNull(container, "container");
    Objects.requireNonNull(original, "original");
    Objects.requireNonNull(reason, "reason");
  }

  /** Whether the container's image changes. */
  public boolean rewrites() {
    return chosen != null && !chosen.isOriginal();
  }
}
