package io.kuik.sim.world;

import io.kuik.sim.time.SimRandom;
import io.kuik.sim.world.api.ClusterState;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.object.ObjectRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The API server's etcd: objects by type and key, one global revision counter that every write
 * (deletions included) advances, and an index of dependents by owner uid for the garbage collector.
 * Stored nodes are never changed in place: a write installs a new node, so the nodes handed to
 * listeners stay valid. Everything outside gets copies.
 */
public final class Storage implements ClusterState {

  /** What a committed write did. */
  public enum ChangeType {
    ADDED,
    MODIFIED,
    DELETED
  }

  /**
   * A committed write: the object after it (for DELETED, the last state with the deletion's
   * resourceVersion) and before it (null for ADDED). Listeners must not change either node.
   */
  public record Change(ResourceType type, ChangeType kind, ObjectNode object, ObjectNode previous) {
    public ObjectRef ref() {
      return ObjectRef.of(type, object);
    }
  }

  /** Told of every committed write, synchronously, in commit order. */
  @FunctionalInterface
  public interface Listener {
    void changed(Change change);
  }

  private static final class Entry {
    final ObjectNode node;
    boolean stale;

    Entry(ObjectNode node) {
      this.node = node;
    }
  }

  private final Map<ResourceType, TreeMap<String, Entry>> objects = new LinkedHashMap<>();
  private final Map<String, TreeSet<ObjectRef>> dependents = new HashMap<>();
  private final List<Listener> listeners = new ArrayList<>();
  private final SimRandom random;
  private long revision;

  Storage(SimRandom random) {
    this.random = random;
    for (ResourceType type : ResourceType.ALL) {
      objects.put(type, new TreeMap<>());
    }
  }

  public void addListener(Listener listener) {
    listeners.add(listener);
  }

  /** The current global resourceVersion, as a list response reports it. */
  public String resourceVersion() {
    return Long.toString(revision);
  }

  /** A new uid, drawn from the storage's own random stream. */
  String newUid() {
    return random.uuid();
  }

  /** Five characters from the alphabet apimachinery's name generator uses. */
  String generatedSuffix() {
    String alphabet = "bcdfghjklmnpqrstvwxz2456789";
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      out.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return out.toString();
  }

  /** The stored node itself, not a copy: for the API server's own stages only. */
  ObjectNode stored(ResourceType type, String namespace, String name) {
    Entry e = table(type).get(key(type, namespace, name));
    return e == null ? null : e.node;
  }

  boolean stale(ResourceType type, String namespace, String name) {
    Entry e = table(type).get(key(type, namespace, name));
    return e != null && e.stale;
  }

  /** As after a change of the encryption key: the next write of any object is a real write. */
  void markAllStale() {
    objects.values().forEach(t -> t.values().forEach(e -> e.stale = true));
  }

  List<ObjectNode> storedList(ResourceType type, String namespace) {
    TreeMap<String, Entry> table = table(type);
    Map<String, Entry> range =
        namespace == null || !type.namespaced()
            ? table
            : table.subMap(namespace + "/", namespace + "0");
    List<ObjectNode> out = new ArrayList<>(range.size());
    range.values().forEach(e -> out.add(e.node));
    return out;
  }

  /** Objects whose ownerReferences name {@code uid}, in a stable order. */
  List<ObjectRef> dependentsOf(String uid) {
    TreeSet<ObjectRef> refs = dependents.get(uid);
    return refs == null ? List.of() : new ArrayList<>(refs);
  }

  ObjectNode insert(ResourceType type, ObjectNode object) {
    String key = key(type, Meta.namespace(object), Meta.name(object));
    if (table(type).containsKey(key)) {
      throw new IllegalStateException("insert over existing " + key);
    }
    stamp(object);
    table(type).put(key, new Entry(object));
    index(type, null, object);
    notify(new Change(type, ChangeType.ADDED, object, null));
    return object;
  }

  ObjectNode replace(ResourceType type, ObjectNode object) {
    String key = key(type, Meta.namespace(object), Meta.name(object));
    Entry previous = table(type).get(key);
    if (previous == null) {
      throw new IllegalStateException("replace of missing " + key);
    }
    stamp(object);
    table(type).put(key, new Entry(object));
    index(type, previous.node, object);
    notify(new Change(type, ChangeType.MODIFIED, object, previous.node));
    return object;
  }

  ObjectNode remove(ResourceType type, String namespace, String name) {
    Entry previous = table(type).remove(key(type, namespace, name));
    if (previous == null) {
      throw new IllegalStateException("remove of missing " + name);
    }
    ObjectNode last = previous.node.deepCopy();
    stamp(last);
    index(type, previous.node, null);
    notify(new Change(type, ChangeType.DELETED, last, previous.node));
    return last;
  }

  @Override
  public Optional<ObjectNode> get(ResourceType type, String namespace, String name) {
    ObjectNode node = stored(type, namespace, name);
    return node == null ? Optional.empty() : Optional.of(node.deepCopy());
  }

  @Override
  public List<ObjectNode> list(ResourceType type, String namespace) {
    List<ObjectNode> out = new ArrayList<>();
    storedList(type, namespace).forEach(n -> out.add(n.deepCopy()));
    return out;
  }

  private void stamp(ObjectNode object) {
    revision++;
    Meta.metadata(object).put("resourceVersion", Long.toString(revision));
  }

  private void notify(Change change) {
    for (Listener l : List.copyOf(listeners)) {
      l.changed(change);
    }
  }

  private void index(ResourceType type, ObjectNode before, ObjectNode after) {
    if (before != null) {
      ObjectRef ref = ObjectRef.of(type, before);
      for (String owner : ownerUids(before)) {
        TreeSet<ObjectRef> set = dependents.get(owner);
        if (set != null) {
          set.remove(ref);
          if (set.isEmpty()) {
            dependents.remove(owner);
          }
        }
      }
    }
    if (after != null) {
      ObjectRef ref = ObjectRef.of(type, after);
      for (String owner : ownerUids(after)) {
        dependents.computeIfAbsent(owner, k -> new TreeSet<>()).add(ref);
      }
    }
  }

  private static List<String> ownerUids(ObjectNode object) {
    List<String> uids = new ArrayList<>();
    for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
      String uid = ref.path("uid").asString("");
      if (!uid.isEmpty()) {
        uids.add(uid);
      }
    }
    return uids;
  }

  private TreeMap<String, Entry> table(ResourceType type) {
    TreeMap<String, Entry> table = objects.get(type);
    if (table == null) {
      throw new IllegalArgumentException("the server does not serve " + type.resource());
    }
    return table;
  }

  private static String key(ResourceType type, String namespace, String name) {
    return type.namespaced() ? namespace + "/" + name : name;
  }
}
