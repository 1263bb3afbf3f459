package io.kuik.sim.world.apply;

import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Kinds;
import io.kuik.sim.world.object.Meta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Server-side apply with field managers, as structured-merge-diff does it on the fields this
 * simulator tracks (see {@link FieldSet}):
 *
 * <ul>
 *   <li>the applied fields are merged into the live object (objects recursively, {@code
 *       metadata.ownerReferences} by uid, every other list replaced whole);
 *   <li>a field another manager owns whose value the apply would change is a conflict: refused
 *       unless forced, in which case the other manager loses it; equal values are shared;
 *   <li>a field this manager applied before and no longer applies is removed, unless another
 *       manager owns it too;
 *   <li>the manager's Apply entry becomes exactly the applied fields.
 * </ul>
 *
 * Whether the result is a no-op is for the caller to decide by comparing it with the live object.
 */
public final class ServerSideApply {

  private ServerSideApply() {}

  /**
   * The object after {@code manager} applies {@code applied} to {@code live} (null: creation), with
   * managedFields updated; {@code live} is not changed.
   *
   * @throws ApplyConflict when fields owned by others would change and {@code force} is false
   */
  public static ObjectNode apply(
      ResourceType type,
      ObjectNode live,
      ObjectNode applied,
      String manager,
      boolean force,
      String now) {
    return apply(type, live, applied, false, manager, force, now);
  }

  /**
   * The object after {@code manager} applies {@code applied} to the status subresource of {@code
   * live}: only {@code status} is merged and owned, every other field of the body is ignored (the
   * status strategy's reset fields), and the object must exist.
   */
  public static ObjectNode applyStatus(
      ResourceType type,
      ObjectNode live,
      ObjectNode applied,
      String manager,
      boolean force,
      String now) {
    Objects.requireNonNull(live, "the status subresource of a missing object");
    return apply(type, live, applied, true, manager, force, now);
  }

  private static ObjectNode apply(
      ResourceType type,
      ObjectNode live,
      ObjectNode applied,
      boolean statusSubresource,
      String manager,
      boolean force,
      String now) {
    FieldSet mine = statusSubresource ? FieldSet.ofStatus(applied) : FieldSet.of(type, applied);
    String apiVersion = type.apiVersion();
    if (live == null) {
      ObjectNode created = applied.deepCopy();
      ManagedFields.write(
          created,
          List.of(new ManagedFields.Entry(manager, ManagedFields.APPLY, apiVersion, now, mine)));
      return created;
    }
    ObjectNode merged = live.deepCopy();
    if (statusSubresource) {
      if (applied.has("status")) {
        mergeValue(merged, "status", applied.get("status"));
      }
    } else {
      merge(type, merged, applied);
    }

    List<ManagedFields.Entry> entries = new ArrayList<>(ManagedFields.read(live));
    List<ApplyConflict.Conflict> conflicts = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      ManagedFields.Entry other = entries.get(i);
      if (other.sameOwner(manager, ManagedFields.APPLY)) {
        continue;
      }
      List<FieldPath> lost = new ArrayList<>();
      for (FieldPath q : other.fields().overlapping(mine.paths())) {
        if (!Objects.equals(q.valueIn(live), q.valueIn(merged))) {
          conflicts.add(new ApplyConflict.Conflict(other.manager(), other.apiVersion(), q));
          lost.add(q);
        }
      }
      entries.set(i, other.withFields(other.fields().minus(lost)));
    }
    if (!conflicts.isEmpty() && !force) {
      throw new ApplyConflict(conflicts);
    }

    ManagedFields.Entry previous = null;
    int index = -1;
    for (int i = 0; i < entries.size(); i++) {
      if (entries.get(i).sameOwner(manager, ManagedFields.APPLY)) {
        previous = entries.get(i);
        index = i;
      }
    }
    if (previous != null) {
      for (FieldPath gone : previous.fields().minus(mine.paths()).paths()) {
        if (!ownedElsewhere(gone, entries, index) && mine.overlapping(List.of(gone)).isEmpty()) {
          gone.removeFrom(merged);
        }
      }
    }

    String time = changed(live, merged) || previous == null ? now : previous.time();
    ManagedFields.Entry entry =
        new ManagedFields.Entry(manager, ManagedFields.APPLY, apiVersion, time, mine);
    if (index >= 0) {
      entries.set(index, entry);
    } else {
      entries.add(entry);
    }
    ManagedFields.write(merged, entries);
    return merged;
  }

  /** True when the objects differ outside managedFields. */
  static boolean changed(ObjectNode before, ObjectNode after) {
    ObjectNode a = before.deepCopy();
    ObjectNode b = after.deepCopy();
    Meta.metadata(a).remove("managedFields");
    Meta.metadata(b).remove("managedFields");
    return !a.equals(b);
  }

  private static boolean ownedElsewhere(
      FieldPath path, List<ManagedFields.Entry> entries, int self) {
    for (int i = 0; i < entries.size(); i++) {
      if (i != self && !entries.get(i).fields().overlapping(List.of(path)).isEmpty()) {
        return true;
      }
    }
    return false;
  }

  private static void merge(ResourceType type, ObjectNode target, ObjectNode applied) {
    for (Map.Entry<String, JsonNode> e : applied.properties()) {
      String field = e.getKey();
      if (field.equals("status") && Kinds.hasStatusSubresource(type)) {
        continue;
      }
      if (field.equals("metadata") && e.getValue().isObject()) {
        mergeMetadata(Meta.metadata(target), (ObjectNode) e.getValue());
      } else {
        mergeValue(target, field, e.getValue());
      }
    }
  }

  private static void mergeMetadata(ObjectNode target, ObjectNode applied) {
    for (Map.Entry<String, JsonNode> e : applied.properties()) {
      String field = e.getKey();
      if (FieldSet.serverMetadata(field)) {
        continue;
      }
      if (field.equals("ownerReferences") && e.getValue().isArray()) {
        mergeByUid(target, field, (ArrayNode) e.getValue());
      } else {
        mergeValue(target, field, e.getValue());
      }
    }
  }

  private static void mergeValue(ObjectNode target, String field, JsonNode value) {
    JsonNode current = target.get(field);
    if (value instanceof ObjectNode object && current instanceof ObjectNode existing) {
      for (Map.Entry<String, JsonNode> e : object.properties()) {
        mergeValue(existing, e.getKey(), e.getValue());
      }
    } else {
      target.set(field, value.deepCopy());
    }
  }

  private static void mergeByUid(ObjectNode metadata, String field, ArrayNode applied) {
    JsonNode current = metadata.get(field);
    ArrayNode merged = current instanceof ArrayNode a ? a : metadata.putArray(field);
    for (JsonNode element : applied) {
      String key = FieldPath.uidSegment(element);
      boolean replaced = false;
      for (int i = 0; i < merged.size(); i++) {
        if (FieldPath.uidSegment(merged.get(i)).equals(key)) {
          merged.set(i, element.deepCopy());
          replaced = true;
          break;
        }
      }
      if (!replaced) {
        merged.add(element.deepCopy());
      }
    }
  }
}
