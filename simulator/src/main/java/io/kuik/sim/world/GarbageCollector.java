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
 * client (so RBAC and admission apply to it), read from kubernetes/kubernetes {@code
 * pkg/controller/garbagecollector} ({@code garbagecollector.go}: {@code attemptToDeleteItem},
 * {@code classifyReferences}, {@code processDeletingDependentsItem}, {@code attemptToOrphanWorker};
 * {@code graph_builder.go}: {@code processTransitions}, {@code addUnblockedOwnersToDeleteQueue}).
 *
 * <p>Each owner reference of an object is <em>solid</em> (the owner exists), <em>dangling</em> (it
 * does not, or with another uid; a namespaced owner is looked up in its dependent's namespace, and
 * a cluster-scoped object cannot have one) or <em>waiting</em> (the owner is being deleted in the
 * foreground):
 *
 * <ul>
 *   <li>with a solid owner, the object only loses its dangling and waiting references (a patch);
 *   <li>with none, it is deleted: in the foreground when a waiting owner holds it and it has
 *       dependents of its own, else with the propagation its own finalizers ask for (Background by
 *       default);
 *   <li>an owner deleted with Foreground propagation carries "foregroundDeletion" and is deleted
 *       once none of its dependents that set {@code blockOwnerDeletion} is left; its other
 *       dependents are collected too, without making it wait;
 *   <li>an owner deleted with Orphan propagation carries "orphan" until each of its dependents has
 *       lost its reference to it (a patch per dependent, refused or allowed by admission); a
 *       refused patch is retried with backoff and the owner waits.
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
    ObjectRef ref = change.ref();
    if (change.kind() == Storage.ChangeType.DELETED) {
      for (ObjectRef dependent : storage.dependentsOf(uid)) {
        attemptLater(dependent);
      }
      // An owner waiting for its dependents looks again when one of them goes.
      Meta.ownerReferences(object)
          .forEach(owner -> ownerRef(owner, ref).ifPresent(this::attemptLater));
      return;
    }
    if (Meta.deleting(object) && Meta.finalizers(object).contains(Writes.ORPHAN_FINALIZER)) {
      later("orphan " + uid, delay, () -> orphan(ref, uid));
    }
    if (deletingDependents(object)) {
      storage.dependentsOf(uid).forEach(this::attemptLater);
      attemptLater(ref);
    }
    if (!Meta.ownerReferences(object).isEmpty()) {
      attemptLater(ref);
    }
    if (change.previous() != null) {
      for (ObjectNode owner : unblockedOwners(change.previous(), object)) {
        ownerRef(owner, ref).ifPresent(this::attemptLater);
      }
    }
  }

  private void attemptLater(ObjectRef ref) {
    later("attempt " + ref, delay, () -> attemptToDelete(ref));
  }

  private void attemptToDelete(ObjectRef ref) {
    String key = "attempt " + ref;
    ObjectNode object = storage.stored(ref.type(), ref.namespace(), ref.name());
    if (object == null) {
      return;
    }
    if (deletingDependents(object)) {
      processDeletingDependents(ref, object);
      return;
    }
    if (Meta.deleting(object)) {
      return; // a one-way trip: its dependents are processed once it is gone
    }
    List<ObjectNode> owners = Meta.ownerReferences(object);
    if (owners.isEmpty()) {
      return;
    }
    List<ObjectNode> solid = new ArrayList<>();
    boolean waiting = false;
    for (ObjectNode owner : owners) {
      Optional<ObjectNode> live = liveOwner(owner, ref);
      if (live.isPresent() && deletingDependents(live.get())) {
        waiting = true;
      } else if (live.isPresent()) {
        solid.add(owner);
      }
    }
    if (solid.size() == owners.size()) {
      return;
    }
    try {
      if (!solid.isEmpty()) {
        patchOwners(ref, object, solid);
      } else {
        delete(ref, object, waiting && !storage.dependentsOf(Meta.uid(object)).isEmpty());
      }
      failures.remove(key);
    } catch (ApiException e) {
      if (e.code() != 404) {
        retry(key, () -> attemptToDelete(ref));
      }
    }
  }

  /** Deletes a dependent none of whose owners is left, honouring its own finalizers. */
  private void delete(ObjectRef ref, ObjectNode object, boolean forWaitingOwner) {
    List<String> finalizers = Meta.finalizers(object);
    PropagationPolicy policy =
        forWaitingOwner || finalizers.contains(Writes.FOREGROUND_FINALIZER)
            ? PropagationPolicy.FOREGROUND
            : finalizers.contains(Writes.ORPHAN_FINALIZER)
                ? PropagationPolicy.ORPHAN
                : PropagationPolicy.BACKGROUND;
    api.delete(
        Identity.GARBAGE_COLLECTOR,
        ref.type(),
        ref.namespace(),
        ref.name(),
        DeleteOptions.of(policy).withUid(Meta.uid(object)));
  }

  /** An owner deleted in the foreground goes once no blocking dependent is left. */
  private void processDeletingDependents(ObjectRef ownerRef, ObjectNode owner) {
    String uid = Meta.uid(owner);
    List<ObjectRef> blocking = new ArrayList<>();
    for (ObjectRef dependent : storage.dependentsOf(uid)) {
      ObjectNode object = storage.stored(dependent.type(), dependent.namespace(), dependent.name());
      if (object != null && blocksOwner(object, uid)) {
        blocking.add(dependent);
      }
    }
    if (blocking.isEmpty()) {
      removeFinalizer(ownerRef, uid, Writes.FOREGROUND_FINALIZER, "attempt " + ownerRef);
      return;
    }
    for (ObjectRef dependent : blocking) {
      ObjectNode object = storage.stored(dependent.type(), dependent.namespace(), dependent.name());
      if (!deletingDependents(object)) {
        attemptToDelete(dependent);
      }
    }
  }

  private void orphan(ObjectRef ownerRef, String uid) {
    String key = "orphan " + uid;
    ObjectNode owner = storage.stored(ownerRef.type(), ownerRef.namespace(), ownerRef.name());
    if (owner == null
        || !uid.equals(Meta.uid(owner))
        || !Meta.finalizers(owner).contains(Writes.ORPHAN_FINALIZER)) {
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
    removeFinalizer(ownerRef, uid, Writes.ORPHAN_FINALIZER, key);
  }

  /** A merge patch of the owner's finalizers without {@code finalizer}, its uid a precondition. */
  private void removeFinalizer(ObjectRef ownerRef, String uid, String finalizer, String key) {
    ObjectNode owner = storage.stored(ownerRef.type(), ownerRef.namespace(), ownerRef.name());
    if (owner == null || !uid.equals(Meta.uid(owner))) {
      return;
    }
    List<String> finalizers = new ArrayList<>(Meta.finalizers(owner));
    if (!finalizers.remove(finalizer)) {
      return;
    }
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
      failures.remove(key);
    } catch (ApiException e) {
      if (e.code() != 404) {
        retry(key, () -> removeFinalizer(ownerRef, uid, finalizer, key));
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

  /**
   * The owner a reference names, when it exists with the referenced uid. A kind the server does not
   * serve cannot be verified and counts as existing (it is left alone).
   */
  private Optional<ObjectNode> liveOwner(ObjectNode ownerRef, ObjectRef dependent) {
    Optional<ResourceType> type =
        ResourceType.ofKind(Json.text(ownerRef, "apiVersion"), Json.text(ownerRef, "kind"));
    if (type.isEmpty()) {
      return Optional.of(ownerRef);
    }
    Optional<ObjectRef> ref = ownerRef(ownerRef, dependent);
    if (ref.isEmpty()) {
      return Optional.empty(); // a cluster-scoped object cannot be owned by a namespaced one
    }
    ObjectNode owner = storage.stored(type.get(), ref.get().namespace(), ref.get().name());
    return owner != null && Json.text(ownerRef, "uid").equals(Meta.uid(owner))
        ? Optional.of(owner)
        : Optional.empty();
  }

  private static Optional<ObjectRef> ownerRef(ObjectNode ownerRef, ObjectRef dependent) {
    Optional<ResourceType> type =
        ResourceType.ofKind(Json.text(ownerRef, "apiVersion"), Json.text(ownerRef, "kind"));
    if (type.isEmpty() || type.get().namespaced() && dependent.namespace() == null) {
      return Optional.empty();
    }
    String namespace = type.get().namespaced() ? dependent.namespace() : null;
    return Optional.of(new ObjectRef(type.get(), namespace, Json.text(ownerRef, "name")));
  }

  private static boolean deletingDependents(ObjectNode object) {
    return Meta.deleting(object) && Meta.finalizers(object).contains(Writes.FOREGROUND_FINALIZER);
  }

  private static boolean blocksOwner(ObjectNode dependent, String ownerUid) {
    for (ObjectNode ref : Meta.ownerReferences(dependent)) {
      if (ownerUid.equals(Json.text(ref, "uid")) && ref.path("blockOwnerDeletion").asBoolean()) {
        return true;
      }
    }
    return false;
  }

  /** The blocking references of {@code before} that {@code after} removed or unblocked. */
  private static List<ObjectNode> unblockedOwners(ObjectNode before, ObjectNode after) {
    List<ObjectNode> unblocked = new ArrayList<>();
    for (ObjectNode ref : Meta.ownerReferences(before)) {
      if (ref.path("blockOwnerDeletion").asBoolean()
          && !blocksOwner(after, Json.text(ref, "uid"))) {
        unblocked.add(ref);
      }
    }
    return unblocked;
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
