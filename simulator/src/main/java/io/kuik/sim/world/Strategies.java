package io.kuik.sim.world;

import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Kinds;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.validation.PodValidation;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What each kind's registry strategy does to an object before it is stored, beyond what every kind
 * gets: a pod is created Pending (and {@code SchedulingGated} while it has gates), a custom
 * resource cannot set its status on create, a namespace gets its finalizer, phase and name label;
 * an update keeps what the client may not change
 * (https://github.com/kubernetes/kubernetes/tree/master/pkg/registry, each kind's strategy.go).
 */
final class Strategies {

  private Strategies() {}

  /** The kind's part of PrepareForCreate. */
  static void prepareCreate(ResourceType type, ObjectNode object) {
    ObjectNode meta = Meta.metadata(object);
    if (type.equals(ResourceType.POD)) {
      ObjectNode status = object.putObject("status");
      status.put("phase", "Pending");
      if (!PodValidation.gates(object).isEmpty()) {
        // The pod registry's PrepareForCreate: a pod created with scheduling gates is Pending with
        // PodScheduled=False, reason SchedulingGated, until its last gate goes
        // (https://github.com/kubernetes/kubernetes/blob/master/pkg/registry/core/pod/strategy.go,
        // applySchedulingGatedCondition).
        ObjectNode condition = status.putArray("conditions").addObject();
        condition.put("type", "PodScheduled");
        condition.put("status", "False");
        condition.put("reason", "SchedulingGated");
        condition.put("message", "Scheduling is blocked due to non-empty scheduling gates");
      }
    } else if (Kinds.hasStatusSubresource(type) && !type.equals(ResourceType.NAMESPACE)) {
      // A custom resource with the status subresource: "create cannot set status"
      // (apiextensions-apiserver customresource/strategy.go, PrepareForCreate).
      object.remove("status");
    } else if (type.equals(ResourceType.NAMESPACE)) {
      Json.child(object, "spec").putArray("finalizers").add("kubernetes");
      object.putObject("status").put("phase", "Active");
      Json.child(meta, "labels").put(Writes.NAME_LABEL, Meta.name(object));
    }
  }

  static void prepareUpdate(
      ResourceType type, ObjectNode candidate, ObjectNode live, String subresource) {
    ObjectNode meta = Meta.metadata(candidate);
    ObjectNode liveMeta = (ObjectNode) live.get("metadata");
    meta.put("name", Meta.name(live));
    if (Meta.namespace(live) != null) {
      meta.put("namespace", Meta.namespace(live));
    }
    if (Meta.uid(candidate) == null || Meta.uid(candidate).isEmpty()) {
      meta.put("uid", Meta.uid(live));
    }
    meta.put("resourceVersion", Meta.resourceVersion(live));
    for (String field :
        new String[] {"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds"}) {
      copyField(liveMeta, meta, field);
    }
    if (subresource == null) {
      if (Kinds.hasStatusSubresource(type)) {
        copyField(live, candidate, "status");
      }
      if (type.equals(ResourceType.NAMESPACE)) {
        copyField(live, candidate, "spec");
      }
    }
    if (type.equals(ResourceType.NAMESPACE)) {
      Json.child(meta, "labels").put(Writes.NAME_LABEL, Meta.name(live));
    }
    copyField(liveMeta, meta, "generation");
    if (Kinds.hasGeneration(type) && specChanged(candidate, live)) {
      meta.put("generation", live.path("metadata").path("generation").asLong(0) + 1);
    }
    Decoding.omitEmpty(candidate);
  }

  private static boolean specChanged(ObjectNode candidate, ObjectNode live) {
    ObjectNode a = candidate.deepCopy();
    ObjectNode b = live.deepCopy();
    for (ObjectNode o : List.of(a, b)) {
      o.remove("metadata");
      o.remove("status");
    }
    return !a.equals(b);
  }

  static void copyField(ObjectNode from, ObjectNode to, String field) {
    JsonNode value = from.get(field);
    if (value == null) {
      to.remove(field);
    } else {
      to.set(field, value.deepCopy());
    }
  }
}
