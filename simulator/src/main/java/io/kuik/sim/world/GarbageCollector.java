package io.kuik.sim.world;

import io.kuik.sim.time.EventLoop;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.object.ObjectRef;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The garbage collector, acting as {@link Identity#GARBAGE_COLLECTOR} through the API like any
 * client (so RBAC and admission apply to it):
 *
 * <ul>
 *   <li>an object none of whose owners exists any more is deleted (Background), in any namespace: a
 *       cluster-scoped owner can own namespaced objects everywhere; a namespaced owner is looked up
 *       in its dependent's namespace; an owner that exists with another uid is gone;
 *   <li>an object with some owners gone loses the dangling references (a patch);
 *   <li>an owner deleted with Orphan propagation carries the "orphan" finalizer until each of its
 *       dependents has lost its reference to it (a patch per dependent, refused or allowed by
 *       admission); a refused patch is retried with backoff and the owner waits; then the finalizer
 *       is removed and the owner goes.
 * </ul>
 */
final class GarbageCollector implements Storage.Listener {

  static final String MANAGER = "kube-controller-manager";
  private static final Duration BASE_BACKOFF = Duration.ofMillis(5);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(1000);

  private final Storage storage;
  private final EventLoop loop;
  private final Set<String> scheduled = new HashSet<>();
  private final Map<String, Integer> failures = new HashMap<>();
  private Duration delay = Duration.ofSeconds(1);
  private ApiServer api;

  GarbageCollector(Storage storage, EventLoop loop) {
    this.storage = storage;
    this.loop = loop;
  }

  void attach(ApiServer api) {
    this.api = api;
  }

  /** How long the collector takes to notice a change (its informers' latency). */
  void setDelay(Duration delay) {
    this.delay = delay;
  }

  @Override
  public void changed(Storage.Change change) {
    ObjectNode object = change.object();
    String uid = Meta.uid(object);
    if (change.kind() == Storage.ChangeType.DELETED) {
      if (!storage.dependentsOf(uid).isEmpty()) {
        later("owner-gone " + uid, delay, () -> ownerGone(uid));
      }
      return;
    }
    if (Meta.deleting(object) && Meta.finalizers(object).contains("orphan")) {
      ObjectRef owner = change.ref();
      later("orphan " + uid, delay, () -> orphan(owner, uid));
    }
    if (!Meta.ownerReferences(object).isEmpty()) {
      ObjectRef ref = change.ref();
      later("dependent " + ref, delay, () -> attemptToDelete(ref));
    }
  }

  private void ownerGone(String uid) {
    for (ObjectRef dependent : storage.dependentsOf(uid)) {
      attemptToDelete(dependent);
    }
  }

  private void attemptToDelete(ObjectRef ref) {
    String key = "dependent " + ref;
    ObjectNode object = storage.stored(ref.type(), ref.namespace(), ref.name());
    if (object == null || Meta.deleting(object)) {
      return;
    }
    List<ObjectNode> owners = Meta.ownerReferences(object);
    List<ObjectNode> solid = new ArrayList<>();
    for (ObjectNode owner : owners) {
      if (ownerExists(owner, ref)) {
        solid.add(owner);
      }
    }
    if (solid.size() == owners.size()) {
      return;
    }
    try {
      if (solid.isEmpty()) {
        api.delete(
            Identity.GARBAGE_COLLECTOR,
            ref.type(),
            ref.namespace(),
            ref.name(),
            DeleteOptions.background().withUid(Meta.uid(object)));
      } else {
        patchOwners(ref, object, solid);
      }
      failures.remove(key);
    } catch (ApiException e) {
      if (e.code() != 404) {
        retry(key, () -> attemptToDelete(ref));
      }
    }
  }

  private void orphan(ObjectRef ownerRef, String uid) {
    String key = "orphan " + uid;
    ObjectNode owner = storage.stored(ownerRef.type(), ownerRef.namespace(), ownerRef.name());
    if (owner == null
        || !uid.equals(Meta.uid(owner))
        || !Meta.finalizers(owner).contains("orphan")) {
      return;
    }
    boolean failed = false;
    for (ObjectRef dependent : storage.dependentsOf(uid)) {
      ObjectNode object = storage.stored(dependent.type(), dependent.namespace(), dependent.name());
      if (object == null) {
        continue;
      }
      List<ObjectNode> kept = new ArrayList<>();
      for (ObjectNode ref : Meta.ownerReferences(object)) {
        if (!uid.equals(Json.text(ref, "uid"))) {
          kept.add(ref);
        }
      }
      try {
        patchOwners(dependent, object, kept);
      } catch (ApiException e) {
        failed |= e.code() != 404;
      }
    }
    if (failed) {
      retry(key, () -> orphan(ownerRef, uid));
      return;
    }
    failures.remove(key);
    List<String> finalizers = new ArrayList<>(Meta.finalizers(owner));
    finalizers.remove("orphan");
    ObjectNode patch = Json.object();
    ObjectNode meta = patch.putObject("metadata");
    ArrayNode array = meta.putArray("finalizers");
    finalizers.forEach(array::add);
    meta.put("uid", uid);
    try {
      api.mergePatch(
          Identity.GARBAGE_COLLECTOR,
          ownerRef.type(),
          ownerRef.namespace(),
          ownerRef.name(),
          patch,
          MANAGER);
    } catch (ApiException e) {
      if (e.code() != 404) {
        retry(key, () -> orphan(ownerRef, uid));
      }
    }
  }

  private void patchOwners(ObjectRef ref, ObjectNode object, List<ObjectNode> kept) {
    ObjectNode patch = Json.object();
    ObjectNode meta = patch.putObject("metadata");
    ArrayNode array = meta.putArray("ownerReferences");
    kept.forEach(array::add);
    meta.put("uid", Meta.uid(object));
    api.mergePatch(
        Identity.GARBAGE_COLLECTOR, ref.type(), ref.namespace(), ref.name(), patch, MANAGER);
  }

  private boolean ownerExists(ObjectNode ownerRef, ObjectRef dependent) {
    Optional<ResourceType> type =
        ResourceType.ofKind(Json.text(ownerRef, "apiVersion"), Json.text(ownerRef, "kind"));
    if (type.isEmpty()) {
      return true; // a kind the server does not serve cannot be verified: leave it alone
    }
    if (type.get().namespaced() && dependent.namespace() == null) {
      return false; // a cluster-scoped object cannot be owned by a namespaced one
    }
    String namespace = type.get().namespaced() ? dependent.namespace() : null;
    ObjectNode owner = storage.stored(type.get(), namespace, Json.text(ownerRef, "name"));
    return owner != null && Json.text(ownerRef, "uid").equals(Meta.uid(owner));
  }

  private void retry(String key, Runnable work) {
    int n = failures.merge(key, 1, Integer::sum);
    Duration backoff = BASE_BACKOFF.multipliedBy(1L << Math.min(n - 1, 30));
    later(key, backoff.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff, work);
  }

  private void later(String key, Duration after, Runnable work) {
    if (!scheduled.add(key)) {
      return;
    }
    loop.schedule(
        after,
        "garbage-collector " + key,
        () -> {
          scheduled.remove(key);
          work.run();
        });
  }
}
