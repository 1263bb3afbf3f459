package io.kuik.sim.world;

import io.kuik.sim.time.EventLoop;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.Operation;
import io.kuik.sim.world.api.RequestAttributes;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Meta;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.node.ObjectNode;

/**
 * Namespace termination, in its two halves.
 *
 * <p>The admission plugin (first in the mutating stage): creating in a missing namespace is 404, in
 * a terminating one 403 "because it is being terminated"; the immortal namespaces cannot be
 * deleted.
 *
 * <p>The namespace controller: once a namespace is marked deleted (deletionTimestamp, phase
 * Terminating), it lists and deletes every namespaced object in it as {@link
 * Identity#NAMESPACE_CONTROLLER}, through the API like any client, retrying while content remains;
 * when nothing is left it removes the "kubernetes" finalizer and the namespace goes.
 */
final class NamespaceLifecycle implements Storage.Listener {

  static final Set<String> IMMORTAL = Set.of("default", "kube-system", "kube-public");
  static final Duration FIRST_SWEEP = Duration.ofSeconds(1);
  static final Duration MAX_BACKOFF = Duration.ofMinutes(1);

  private final Storage storage;
  private final EventLoop loop;
  private final Map<String, Integer> attempts = new HashMap<>();
  private ApiServer api;

  NamespaceLifecycle(Storage storage, EventLoop loop) {
    this.storage = storage;
    this.loop = loop;
  }

  void attach(ApiServer api) {
    this.api = api;
  }

  void admit(RequestAttributes request, Operation operation) {
    if (operation == Operation.DELETE) {
      if (request.type().equals(ResourceType.NAMESPACE) && IMMORTAL.contains(request.name())) {
        throw ApiException.forbidden(
            request.type(), request.name(), "this namespace may not be deleted");
      }
      return;
    }
    if (operation != Operation.CREATE || !request.type().namespaced()) {
      return;
    }
    ObjectNode namespace = storage.stored(ResourceType.NAMESPACE, null, request.namespace());
    if (namespace == null) {
      throw ApiException.notFound(ResourceType.NAMESPACE, request.namespace());
    }
    if (Meta.deleting(namespace)) {
      throw ApiException.forbidden(
          request.type(),
          request.name(),
          "unable to create new content in namespace "
              + request.namespace()
              + " because it is being terminated");
    }
  }

  @Override
  public void changed(Storage.Change change) {
    if (change.type().equals(ResourceType.NAMESPACE)
        && change.kind() != Storage.ChangeType.DELETED
        && Meta.deleting(change.object())
        && (change.previous() == null || !Meta.deleting(change.previous()))) {
      String name = Meta.name(change.object());
      loop.schedule(FIRST_SWEEP, "namespace-controller " + name, () -> sweep(name));
    }
    if (change.type().equals(ResourceType.NAMESPACE)
        && change.kind() == Storage.ChangeType.DELETED) {
      attempts.remove(Meta.name(change.object()));
    }
  }

  private void sweep(String namespace) {
    ObjectNode ns = storage.stored(ResourceType.NAMESPACE, null, namespace);
    if (ns == null || !Meta.deleting(ns)) {
      return;
    }
    boolean remaining = false;
    for (ResourceType type : ResourceType.ALL) {
      if (!type.namespaced()) {
        continue;
      }
      remaining |= deleteAll(type, namespace);
    }
    if (remaining) {
      int n = attempts.merge(namespace, 1, Integer::sum);
      Duration backoff = FIRST_SWEEP.multipliedBy(1L << Math.min(n, 6));
      loop.schedule(
          backoff.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff,
          "namespace-controller " + namespace,
          () -> sweep(namespace));
      return;
    }
    try {
      api.finalizeNamespace(Identity.NAMESPACE_CONTROLLER, namespace, List.of());
    } catch (ApiException e) {
      loop.schedule(MAX_BACKOFF, "namespace-controller " + namespace, () -> sweep(namespace));
    }
  }

  /** Deletes every object of the type in the namespace; true when some are still there. */
  private boolean deleteAll(ResourceType type, String namespace) {
    List<ObjectNode> items;
    try {
      items = api.list(Identity.NAMESPACE_CONTROLLER, type, namespace).items();
    } catch (ApiException e) {
      return true;
    }
    boolean remaining = false;
    for (ObjectNode item : items) {
      if (!Meta.deleting(item)) {
        try {
          api.delete(Identity.NAMESPACE_CONTROLLER, type, namespace, Meta.name(item));
        } catch (ApiException e) {
          if (e.code() != 404) {
            remaining = true;
          }
        }
      }
      remaining |= storage.stored(type, namespace, Meta.name(item)) != null;
    }
    return remaining;
  }
}
