package io.kuik.routing;

import io.kuik.model.ImageReference;
import java.util.List;
import java.util.Objects;

/**
 * What routing decided for one covered container: the candidates it chose from, in probe order (so
 * that {@code kuik plan} and {@code kuik explain} show the list the webhook itself used), the
 * candidate it runs ({@code null} when no candidate answered, and the container keeps its image)
 * and a short reason for people reading the pod. The winning resource and entry are the chosen
 * candidate's.
 */
public record ContainerDecision(
    ContainerSlot container,
    ImageReference original,
    List<Candidate> candidates,
    Candidate chosen,
    String reason) {

  public ContainerDecision {
    Objects.requireNonNull(container, "container");
    Objects.requireNonNull(original, "original");
    candidates = List.copyOf(candidates);
    Objects.requireNonNull(reason, "reason");
    if (chosen != null && !candidates.contains(chosen)) {
      throw new IllegalArgumentException("the chosen candidate is one of the candidates");
    }
  }

  /** Whether the container's image changes. */
  public boolean rewrites() {
    return chosen != null && !chosen.isOriginal();
  }
}
