package io.kuik.kube.webhook;

import io.kuik.model.Problem;
import io.kuik.model.ResourceId;
import io.kuik.model.Validated;
import io.kuik.routing.RoutingIndex;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * The routing resources as the webhook routes with them: each ImageAlternative and ImageMirror the
 * informers deliver, validated once per change, and a {@link RoutingIndex} of the valid ones built
 * again after every change and swapped in whole. An admission reads the index it finds, without a
 * lock; changes come from the informers' threads and are serialized here.
 *
 * <p>An invalid resource routes nothing, as in the syncer; its problems are logged once per change
 * (the syncer records them as a Warning event on the resource).
 */
class WebhookRouting implements Supplier<RoutingIndex> {

  private static final Logger LOG = Logger.getLogger(WebhookRouting.class.getName());

  private final Map<ResourceId, Validated> resources = new HashMap<>();
  private volatile RoutingIndex index = RoutingIndex.EMPTY;
  private volatile int invalid;

  /** A resource was created or changed. */
  synchronized void changed(Validated resource) {
    resources.put(resource.id(), resource);
    if (resource instanceof Validated.Invalid invalid) {
      LOG.warning(describe(invalid));
    }
    rebuild();
  }

  /**
   * The informers listed {@code resources} (read under the lock, so that no notification delivered
   * meanwhile is overwritten by an older copy): one rebuild for all. Invalid ones are logged when
   * their own notification arrives.
   */
  synchronized void listed(Supplier<? extends Collection<Validated>> resources) {
    for (Validated resource : resources.get()) {
      this.resources.put(resource.id(), resource);
    }
    rebuild();
  }

  /**
   * What an invalid resource's warning says: the number of problems and the first ones, at most
   * {@value #PROBLEMS_SHOWN} characters of them (a resource of a million entries can have as many
   * problems; its status condition lists them all).
   */
  static String describe(Validated.Invalid invalid) {
    List<Problem> problems = invalid.problems();
    String listed = problems.stream().map(Problem::toString).collect(Collectors.joining("; "));
    if (listed.length() > PROBLEMS_SHOWN) {
      listed =
          listed.substring(0, PROBLEMS_SHOWN)
              + "… ("
              + listed.length()
              + " characters in all; kubectl get shows every problem in the Valid condition)";
    }
    return invalid.id()
        + " is invalid and routes no pod until it is fixed: "
        + problems.size()
        + (problems.size() == 1 ? " problem: " : " problems: ")
        + listed;
  }

  static final int PROBLEMS_SHOWN = 500;

  /** A resource was deleted. */
  synchronized void deleted(ResourceId id) {
    if (resources.remove(id) != null) {
      rebuild();
    }
  }

  /** The index of the valid resources, as of the last change. */
  @Override
  public RoutingIndex get() {
    return index;
  }

  /** How many valid resources the index holds. */
  int valid() {
    return index.resources().size();
  }

  /** How many resources are left out for their problems. */
  int invalid() {
    return invalid;
  }

  private void rebuild() {
    index = RoutingIndex.ofValidated(resources.values());
    invalid = (int) resources.values().stream().filter(Validated.Invalid.class::isInstance).count();
  }
}
