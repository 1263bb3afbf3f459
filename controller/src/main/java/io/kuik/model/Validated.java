package io.kuik.model;

import java.util.List;
import java.util.Objects;

/**
 * A routing resource as read from the API server: either {@link Valid} and usable, or {@link
 * Invalid} with every problem found, for a Warning event on the resource. Controllers skip an
 * invalid resource and carry on with the others.
 */
public sealed interface Validated permits Validated.Valid, Validated.Invalid {

  ResourceId id();

  /**
   * The resource's {@code metadata.generation} (0 when the object has none), which a status says it
   * was decided from.
   */
  long generation();

  /** The resource passed every check. */
  record Valid(RoutingResource resource, long generation) implements Validated {
    public Valid {
      Objects.requireNonNull(resource, "resource");
    }

    public Valid(RoutingResource resource) {
      this(resource, 0);
    }

    @Override
    public ResourceId id() {
      return resource.id();
    }
  }

  /** The resource cannot be used; {@code problems} is never empty. */
  record Invalid(ResourceId id, List<Problem> problems, long generation) implements Validated {
    public Invalid {
      Objects.requireNonNull(id, "id");
      problems = List.copyOf(problems);
      if (problems.isEmpty()) {
        throw new IllegalArgumentException("an invalid resource has at least one problem");
      }
    }

    public Invalid(ResourceId id, List<Problem> problems) {
      this(id, problems, 0);
    }
  }
}
