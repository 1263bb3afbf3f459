package io.kuik.model;

import java.util.Map;
import java.util.Objects;

/**
 * What the syncer keeps of a namespace
 * (docs/decisions/0032-only-rewritten-pods-and-slim-records.md): its name, its labels (the scopes
 * and the targeting read them) and whether it is being deleted.
 */
public record ObservedNamespace(String name, Map<String, String> labels, boolean terminating) {

  public ObservedNamespace {
    Objects.requireNonNull(name, "name");
    Map<String, String> kept = new java.util.HashMap<>();
    if (labels != null) {
      labels.forEach(
          (key, value) -> {
            if (key != null && value != null) {
              kept.put(key, value);
            }
          });
    }
    labels = Map.copyOf(kept);
  }
}
