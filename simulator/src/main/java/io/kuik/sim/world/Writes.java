package io.kuik.sim.world;

import io.kuik.sim.time.EventLoop;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.Operation;
import io.kuik.sim.world.api.RequestAttributes;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.api.Verb;
import io.kuik.sim.world.apply.ApplyConflict;
import io.kuik.sim.world.apply.MergePatch;
import io.kuik.sim.world.apply.ServerSideApply;
import io.kuik.sim.world.apply.UpdateOwnership;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Kinds;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.object.Timestamps;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The write verbs, each in the order the API server's handlers and registry run its stages:
 *
 * <ul>
 *   <li>create: authorize (without a name), decode, mutating admission, system fields, validation,
 *       validating admission, then storage (where an existing name is 409 AlreadyExists); an apply
 *       that creates is authorized as a patch, then as a create after validation;
 *   <li>update and patch: authorize, decode, 404 if missing, (apply: merge, 409 on field
 *       conflicts), mutating admission, 409 on a stale resourceVersion, system fields, validation,
 *       validating admission, storage; a result equal to the stored object is not written;
 *   <li>delete: authorize, mutating admission, 404, preconditions, validating admission, then the
 *       propagation policy's finalizers and the object's own decide between marking it deleted and
 *       removing it.
 * </ul>
 */
final class Writes {

  /** The label the API server keeps on every namespace, equal to its name. */
  static final String NAME_LABEL = "kubernetes.io/metadata.name";

  /** metav1.FinalizerOrphanDependents: the garbage collector orphans the dependents first. */
  static final String ORPHAN_FINALIZER = "orphan";

  /** metav1.FinalizerDeleteDependents: the owner waits for its blocking dependents. */
  static final String FOREGROUND_FINALIZER = "foregroundDeletion";

  private static final String APPLY_REQUIRES = "metadata.name is required for apply requests";

  private final Storage storage;
  private final Pipeline pipeline;
  private final EventLoop loop;

  Writes(Storage storage, Pipeline pipeline, EventLoop loop) {
    this.storage = storage;
    this.pipeline = pipeline;
    this.loop = loop;
  }

  ObjectNode create(Identity identity, ObjectNode body, String manager) {
    return create(identity, body, manager, false);
  }

  /**
   * A create; with {@code dryRun}, every stage runs as for a real one, the store's check for an
   * existing name included, and the object comes back as it would have been stored, without being
   * stored (registry/rest/create.go and the store's dry-run storage).
   */
  ObjectNode create(Identity identity, ObjectNode body, String manager, boolean dryRun) {
    ResourceType type = Decoding.typeOf(body);
    RequestAttributes request = request(identity, Verb.CREATE, type, body, null);
    // A POST names no object in its URL, so RBAC is asked without a name (requestinfo.go): a rule
    // with resourceNames never grants it. Admission sees the name the body carries.
    pipeline.authorize(request.withName(null));
    ObjectNode object = decode(type, body);
    return createDecoded(request, type, object, manager, false, null, dryRun);
  }

  ObjectNode update(Identity identity, ObjectNode body, String manager) {
    ResourceType type = Decoding.typeOf(body);
    RequestAttributes request = request(identity, Verb.UPDATE, type, body, null);
    pipeline.authorize(request);
    ObjectNode object = decode(type, body);
    ObjectNode live = existing(type, request);
    return updateDecoded(request, type, live, object, manager, false);
  }

  /** The status subresource: only {@code status} of the body is taken. */
  ObjectNode updateStatus(Identity identity, ObjectNode body, String manager) {
    ResourceType type = Decoding.typeOf(body);
    RequestAttributes request = request(identity, Verb.UPDATE, type, body, "status");
    pipeline.authorize(request);
    ObjectNode live = existing(type, request);
    ObjectNode candidate = live.deepCopy();
    candidate.set("status", body.path("status").deepCopy());
    String rv = Meta.resourceVersion(body);
    Meta.metadata(candidate).put("resourceVersion", rv == null ? "" : rv);
    return updateDecoded(request, type, live, candidate, manager, false);
  }

  /**
   * A server-side apply on the status subresource, as the API server handles a custom resource's
   * (apiextensions-apiserver pkg/registry/customresource): only {@code status} is merged and owned
   * (status_strategy.go, PrepareForUpdate and GetResetFields: every other field keeps its stored
   * value), and a missing object is 404, never created (etcd.go, StatusREST.Update passes
   * forceAllowCreate false: subresources never create on update).
   */
  ObjectNode applyStatus(Identity identity, ObjectNode body, String manager, boolean force) {
    ResourceType type = Decoding.typeOf(body);
    RequestAttributes request = request(identity, Verb.PATCH, type, body, "status");
    pipeline.authorize(request);
    if (request.name() == null || request.name().isEmpty()) {
      throw ApiException.badRequest(APPLY_REQUIRES);
    }
    if (manager == null || manager.isEmpty()) {
      throw ApiException.badRequest(
          "PATCH, application/apply-patch+yaml requests must specify a fieldManager");
    }
    if (!Kinds.hasStatusSubresource(type)) {
      throw ApiException.notFound(type, request.name()); // no such subresource is served
    }
    ObjectNode live = existing(type, request);
    ObjectNode applied = Decoding.configuration(type, body);
    String precondition = Meta.resourceVersion(applied);
    if (precondition != null
        && !precondition.isEmpty()
        && !precondition.equals(Meta.resourceVersion(live))) {
      throw ApiException.stale(type, request.name());
    }
    ObjectNode merged;
    try {
      merged =
          ServerSideApply.applyStatus(
              type, live, applied, manager, force, Timestamps.format(loop.now()));
    } catch (ApplyConflict conflict) {
      throw new ApiException(StatusReason.CONFLICT, conflict.getMessage());
    }
    pipeline.coerce(type, merged);
    ObjectNode candidate = live.deepCopy();
    Strategies.copyField(merged, candidate, "status");
    Strategies.copyField(Meta.metadata(merged), Meta.metadata(candidate), "managedFields");
    return updateDecoded(request, type, live, candidate, manager, true);
  }

  /** The namespaces/finalize subresource: sets spec.finalizers of a namespace. */
  ObjectNode finalizeNamespace(Identity identity, String name, List<String> finalizers) {
    RequestAttributes request =
        new RequestAttributes(
            identity, Verb.UPDATE, ResourceType.NAMESPACE, null, name, "finalize");
    pipeline.authorize(request);
    ObjectNode live = existing(ResourceType.NAMESPACE, request);
    ObjectNode candidate = live.deepCopy();
    var array = Json.child(candidate, "spec").putArray("finalizers");
    finalizers.forEach(array::add);
    return updateDecoded(
        request, ResourceType.NAMESPACE, live, candidate, "namespace-controller", false);
  }

  ObjectNode apply(Identity identity, ObjectNode body, String manager, boolean force) {
    ResourceType type = Decoding.typeOf(body);
    RequestAttributes request = request(identity, Verb.PATCH, type, body, null);
    pipeline.authorize(request);
    if (request.name() == null || request.name().isEmpty()) {
      throw ApiException.badRequest(APPLY_REQUIRES);
    }
    if (manager == null || manager.isEmpty()) {
      throw ApiException.badRequest(
          "PATCH, application/apply-patch+yaml requests must specify a fieldManager");
    }
    ObjectNode applied = Decoding.configuration(type, body);
    ObjectNode live = storage.stored(type, request.namespace(), request.name());
    String now = Timestamps.format(loop.now());
    if (live == null) {
      ObjectNode created = ServerSideApply.apply(type, null, applied, manager, force, now);
      Decoding.defaults(type, created);
      pipeline.coerce(type, created);
      // The apply was authorized as a patch; creating needs create too, asked with the URL's name
      // once the object is built (patch.go: createValidation wraps admission in the create check).
      return createDecoded(
          request, type, created, manager, true, request.withVerb(Verb.CREATE), false);
    }
    String precondition = Meta.resourceVersion(applied);
    if (precondition != null
        && !precondition.isEmpty()
        && !precondition.equals(Meta.resourceVersion(live))) {
      throw ApiException.stale(type, request.name());
    }
    ObjectNode merged;
    try {
      merged = ServerSideApply.apply(type, live, applied, manager, force, now);
    } catch (ApplyConflict conflict) {
      throw new ApiException(StatusReason.CONFLICT, conflict.getMessage());
    }
    Decoding.defaults(type, merged);
    pipeline.coerce(type, merged);
    Meta.metadata(merged).put("resourceVersion", Meta.resourceVersion(live));
    return updateDecoded(request, type, live, merged, manager, true);
  }

  /**
   * A JSON Patch (RFC 6902) of an existing object. An operation that does not apply (a {@code test}
   * that fails, a path that is not there) is 422, as the API server's patcher answers it
   * (https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go).
   */
  ObjectNode jsonPatch(
      Identity identity,
      ResourceType type,
      String namespace,
      String name,
      JsonNode patch,
      String manager) {
    RequestAttributes request =
        new RequestAttributes(identity, Verb.PATCH, type, ns(type, namespace), name, null);
    pipeline.authorize(request);
    ObjectNode live = existing(type, request);
    JsonNode patched;
    try {
      patched = io.fabric8.zjsonpatch.JsonPatch.apply(patch, live);
    } catch (RuntimeException doesNotApply) {
      throw new ApiException(StatusReason.INVALID, String.valueOf(doesNotApply.getMessage()));
    }
    if (!(patched instanceof ObjectNode object)
        || !Objects.equals(Meta.name(object), name)
        || !Objects.equals(Meta.namespace(object), request.namespace())) {
      throw new ApiException(
          StatusReason.INVALID, "the patch may not change the object's name or namespace");
    }
    return updateDecoded(request, type, live, decode(type, object), manager, false);
  }

  ObjectNode mergePatch(
      Identity identity,
      ResourceType type,
      String namespace,
      String name,
      JsonNode patch,
      String manager) {
    RequestAttributes request =
        new RequestAttributes(identity, Verb.PATCH, type, ns(type, namespace), name, null);
    pipeline.authorize(request);
    ObjectNode live = existing(type, request);
    JsonNode patched = MergePatch.apply(live, patch);
    if (!(patched instanceof ObjectNode object)) {
      throw ApiException.badRequest("the patch must be a JSON object");
    }
    if (!Objects.equals(Meta.name(object), name)
        || !Objects.equals(Meta.namespace(object), request.namespace())) {
      throw ApiException.invalid(
          type,
          name,
          List.of(
              "metadata.name: Invalid value: \"" + Meta.name(object) + "\": field is immutable"));
    }
    return updateDecoded(request, type, live, decode(type, object), manager, false);
  }

  ObjectNode delete(
      Identity identity, ResourceType type, String namespace, String name, DeleteOptions options) {
    RequestAttributes request =
        new RequestAttributes(identity, Verb.DELETE, type, ns(type, namespace), name, null);
    pipeline.authorize(request);
    pipeline.admitMutating(request, Operation.DELETE, null, null);
    ObjectNode live = existing(type, request);
    if (options.uid() != null && !options.uid().equals(Meta.uid(live))) {
      throw ApiException.conflict(
          type,
          name,
          "Precondition failed: UID in precondition: "
              + options.uid()
              + ", UID in object meta: "
              + Meta.uid(live));
    }
    if (options.resourceVersion() != null
        && !options.resourceVersion().equals(Meta.resourceVersion(live))) {
      throw ApiException.stale(type, name);
    }
    pipeline.admitValidating(request, Operation.DELETE, null, live);
    List<String> finalizers = garbageCollectionFinalizers(live, options.propagation());
    boolean changed = !new HashSet<>(finalizers).equals(new HashSet<>(Meta.finalizers(live)));
    if (Meta.deleting(live)) {
      // Deleting again changes only the propagation finalizers (store.go,
      // updateForGracefulDeletionAndFinalizers); the deletion itself is under way.
      if (!changed) {
        return live.deepCopy();
      }
      ObjectNode remarked = live.deepCopy();
      Meta.setFinalizers(remarked, finalizers);
      return storage.replace(type, remarked).deepCopy();
    }
    boolean namespaceFinalizers =
        type.equals(ResourceType.NAMESPACE) && !live.path("spec").path("finalizers").isEmpty();
    if (finalizers.isEmpty() && !namespaceFinalizers) {
      return storage.remove(type, request.namespace(), name).deepCopy();
    }
    ObjectNode marked = live.deepCopy();
    Meta.metadata(marked).put("deletionTimestamp", Timestamps.format(loop.now()));
    Meta.metadata(marked).put("deletionGracePeriodSeconds", 0);
    if (Kinds.hasGeneration(type)) {
      // markAsDeleting bumps the generation of objects that have one.
      Meta.metadata(marked)
          .put("generation", live.path("metadata").path("generation").asLong() + 1);
    }
    Meta.setFinalizers(marked, finalizers);
    if (type.equals(ResourceType.NAMESPACE)) {
      Json.child(marked, "status").put("phase", "Terminating");
    }
    return storage.replace(type, marked).deepCopy();
  }

  /**
   * The object's finalizers once the deletion's propagation policy is applied, as store.go's
   * deletionFinalizersForGarbageCollection sets them: "orphan" for Orphan, "foregroundDeletion" for
   * Foreground, neither for Background; every other finalizer kept in order.
   */
  static List<String> garbageCollectionFinalizers(ObjectNode live, PropagationPolicy policy) {
    List<String> finalizers = new ArrayList<>();
    for (String f : Meta.finalizers(live)) {
      if (!f.equals(ORPHAN_FINALIZER) && !f.equals(FOREGROUND_FINALIZER)) {
        finalizers.add(f);
      }
    }
    if (policy == PropagationPolicy.ORPHAN) {
      finalizers.add(ORPHAN_FINALIZER);
    } else if (policy == PropagationPolicy.FOREGROUND) {
      finalizers.add(FOREGROUND_FINALIZER);
    }
    return finalizers;
  }

  private ObjectNode createDecoded(
      RequestAttributes request,
      ResourceType type,
      ObjectNode object,
      String manager,
      boolean owned,
      RequestAttributes createAccess,
      boolean dryRun) {
    object = pipeline.admitMutating(request, Operation.CREATE, object, null, dryRun);
    prepareCreate(type, object);
    if (!owned) {
      UpdateOwnership.attribute(type, null, object, manager, Timestamps.format(loop.now()));
    }
    pipeline.validate(type, object, null);
    if (createAccess != null) {
      pipeline.checkAccess(createAccess);
    }
    pipeline.admitValidating(request, Operation.CREATE, object, null, dryRun);
    String rv = Meta.resourceVersion(object);
    if (rv != null && !rv.isEmpty()) {
      throw ApiException.internal("resourceVersion should not be set on objects to be created");
    }
    if (storage.stored(type, Meta.namespace(object), Meta.name(object)) != null) {
      throw ApiException.alreadyExists(type, Meta.name(object));
    }
    if (dryRun) {
      // The dry-run storage checks the key and stores nothing: no resourceVersion is assigned.
      return object.deepCopy();
    }
    return storage.insert(type, object).deepCopy();
  }

  private ObjectNode updateDecoded(
      RequestAttributes request,
      ResourceType type,
      ObjectNode live,
      ObjectNode candidate,
      String manager,
      boolean owned) {
    candidate = pipeline.admitMutating(request, Operation.UPDATE, candidate, live);
    String rv = Meta.resourceVersion(candidate);
    if (rv != null && !rv.isEmpty() && !rv.equals(Meta.resourceVersion(live))) {
      throw ApiException.stale(type, request.name());
    }
    Strategies.prepareUpdate(type, candidate, live, request.subresource());
    if (!owned) {
      UpdateOwnership.attribute(type, live, candidate, manager, Timestamps.format(loop.now()));
    }
    pipeline.validate(type, candidate, live, request.subresource());
    pipeline.admitValidating(request, Operation.UPDATE, candidate, live);
    if (candidate.equals(live) && !storage.stale(type, request.namespace(), request.name())) {
      return live.deepCopy();
    }
    if (Meta.deleting(candidate) && finalizersDone(type, candidate)) {
      return storage.remove(type, request.namespace(), request.name()).deepCopy();
    }
    return storage.replace(type, candidate).deepCopy();
  }

  /** Decoded and defaulted, a custom resource pruned and defaulted by its CRD's schema too. */
  private ObjectNode decode(ResourceType type, ObjectNode body) {
    ObjectNode object = Decoding.decode(type, body);
    pipeline.coerce(type, object);
    return object;
  }

  private void prepareCreate(ResourceType type, ObjectNode object) {
    ObjectNode meta = Meta.metadata(object);
    String name = Meta.name(object);
    String generateName = Json.text(object, "metadata", "generateName");
    if ((name == null || name.isEmpty()) && generateName != null && !generateName.isEmpty()) {
      meta.put("name", generateName + storage.generatedSuffix());
    }
    meta.put("uid", storage.newUid());
    meta.put("creationTimestamp", Timestamps.format(loop.now()));
    meta.remove("deletionTimestamp");
    meta.remove("deletionGracePeriodSeconds");
    meta.remove("generation");
    if (Kinds.hasGeneration(type)) {
      meta.put("generation", 1);
    }
    Strategies.prepareCreate(type, object);
  }

  private static boolean finalizersDone(ResourceType type, ObjectNode object) {
    if (!Meta.finalizers(object).isEmpty()) {
      return false;
    }
    return !type.equals(ResourceType.NAMESPACE) || object.path("spec").path("finalizers").isEmpty();
  }

  private ObjectNode existing(ResourceType type, RequestAttributes request) {
    ObjectNode live = storage.stored(type, request.namespace(), request.name());
    if (live == null) {
      throw ApiException.notFound(type, request.name());
    }
    return live;
  }

  private static RequestAttributes request(
      Identity identity, Verb verb, ResourceType type, JsonNode body, String subresource) {
    return new RequestAttributes(
        identity, verb, type, ns(type, Meta.namespace(body)), Meta.name(body), subresource);
  }

  static String ns(ResourceType type, String namespace) {
    return type.namespaced() ? namespace : null;
  }
}
