package io.kuik.routing;

import io.kuik.model.ImageReference;
import java.util.List;
import java.util.Objects;

/**
 * The candidates of one container that some resource covers, in probe order (the plan step of
 * docs/architecture.md#the-webhook): the original is among them, exactly once, and every other
 * candidate comes from a resource that covers it.
 */
public record ContainerPlan(
    ContainerSlot container, ImageReference original, List<Candidate> candidates) {

  public ContainerPlan {
    Objects.requireNonNull(container, "container");
    Objects.requireNonNull(original, "original");
    candidates = List.copyOf(candidates);
    if (candidates.stream().filter(Candidate::isOriginal).count() != 1) {
      throw new IllegalArgumentException("a plan holds the original exactly once");
    }
  }
}
