package io.kuik.sim.world.apply;

import io.kuik.sim.world.api.ResourceType;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * Field ownership after a create, update or patch (operation Update): the writer takes every field
 * it added or changed, from whoever owned it (updates never conflict); fields it removed leave
 * every manager.
 */
public final class UpdateOwnership {

  private UpdateOwnership() {}

  /**
   * Sets {@code updated}'s managedFields. The starting point is the managedFields the client sent
   * when it sent any (that is how a client resets them), else the stored ones.
   */
  public static void attribute(
      ResourceType type, ObjectNode old, ObjectNode updated, String manager, String now) {
    boolean sent = updated.path("metadata").has("managedFields");
    List<ManagedFields.Entry> entries =
        new ArrayList<>(ManagedFields.read(sent || old == null ? updated : old));
    FieldSet after = FieldSet.of(type, updated);
    FieldSet before = old == null ? FieldSet.empty() : FieldSet.of(type, old);
    List<FieldPath> changed = new ArrayList<>();
    for (FieldPath p : after.paths()) {
      if (!before.contains(p) || !Objects.equals(p.valueIn(old), p.valueIn(updated))) {
        changed.add(p);
      }
    }
    List<FieldPath> removed = new ArrayList<>(before.minus(after.paths()).paths());
    List<FieldPath> touched = new ArrayList<>(changed);
    touched.addAll(removed);

    int mine = -1;
    for (int i = 0; i < entries.size(); i++) {
      ManagedFields.Entry e = entries.get(i);
      if (e.sameOwner(manager, ManagedFields.UPDATE)) {
        mine = i;
      } else {
        entries.set(i, e.withFields(e.fields().minus(e.fields().overlapping(touched))));
      }
    }
    ManagedFields.Entry entry =
        mine >= 0
            ? entries.get(mine)
            : new ManagedFields.Entry(
                manager, ManagedFields.UPDATE, type.apiVersion(), now, FieldSet.empty());
    FieldSet kept = entry.fields().minus(entry.fields().overlapping(removed)).union(changed);
    entry = entry.withFields(kept);
    if (!changed.isEmpty()) {
      entry = entry.withTime(now);
    }
    if (mine >= 0) {
      entries.set(mine, entry);
    } else {
      entries.add(entry);
    }
    ManagedFields.write(updated, entries);
  }
}
