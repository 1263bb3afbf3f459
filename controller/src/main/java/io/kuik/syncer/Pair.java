package io.kuik.syncer;

import io.kuik.model.ResourceId;
import java.util.Objects;

/**
 * The syncer's unit of work: one routing resource in one namespace, owning at most one Secret
 * (docs/architecture.md#the-pair).
 */
public record Pair(ResourceId resource, String namespace) {

  public Pair {
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(namespace, "namespace");
  }

  @Override
  public String toString() {
    return resource + "@" + namespace;
  }
}
