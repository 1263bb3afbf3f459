package io.kuik.kube.syncer;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.kuik.model.ResourceId;
import io.kuik.model.Validated;
import java.util.Objects;

/**
 * What one of the syncer's informers announced, as its handler got it: the object before ({@code
 * null} for an add) and after ({@code null} for a delete), once the informer's cache holds the
 * change. fabric8's informers hand them over in production, the simulated ones in the simulator;
 * {@link Intake} turns each into at most one core input, by one rule for both.
 */
public sealed interface Notification {

  /** A rewritten pod (the informer selects the webhook's label). */
  record PodNotified(Pod before, Pod after) implements Notification {
    public PodNotified {
      requireOne(before, after);
    }
  }

  record NamespaceNotified(Namespace before, Namespace after) implements Notification {
    public NamespaceNotified {
      requireOne(before, after);
    }
  }

  /** A routing resource, read leniently on the informer's thread ({@code after} null: deleted). */
  record RoutingNotified(ResourceId id, Validated after) implements Notification {
    public RoutingNotified {
      Objects.requireNonNull(id, "id");
    }
  }

  /** A Secret of the cluster resource namespace, added, changed or deleted. */
  record SourceNotified(String name) implements Notification {
    public SourceNotified {
      Objects.requireNonNull(name, "name");
    }
  }

  private static void requireOne(Object before, Object after) {
    if (before == null && after == null) {
      throw new IllegalArgumentException("a notification has a before or an after");
    }
  }
}
