package io.kuik.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * An informer's cache that keeps, per object, only the core's record of it and its resourceVersion,
 * instead of the object (docs/decisions/0032-only-rewritten-pods-and-slim-records.md). fabric8
 * hands it every object it lists or watches ({@code SharedIndexInformer.itemStore}); what it asks
 * back (the previous state of an update or a delete, the objects a relist no longer has) is rebuilt
 * from the record as a minimal object that reads back to the same record, which is all the handlers
 * read.
 *
 * <p>The records are also kept by group (a pod's namespace), for the core's reads. fabric8 calls
 * the store under its own lock, from its informer thread; the core reads it from its own thread, so
 * the maps are concurrent and every read is a copy.
 *
 * @param <T> the API object
 * @param <R> the core's record of it
 */
public final class SlimStore<T extends HasMetadata, R> implements ItemStore<T> {

  private record Slim<R>(R record, String resourceVersion) {}

  private final Function<T, R> slim;
  private final BiFunction<R, String, T> rebuild;
  private final Function<R, String> groupOf;
  private final Function<R, String> nameOf;
  private final Map<String, Slim<R>> byKey = new ConcurrentHashMap<>();
  private final Map<String, Map<String, R>> byGroup = new ConcurrentHashMap<>();

  /**
   * @param slim the record of an object
   * @param rebuild a minimal object from a record and a resourceVersion, whose record is the same
   * @param groupOf the group a record is read by (the namespace of a pod); null: no groups
   * @param nameOf its name within the group; null without groups
   */
  public SlimStore(
      Function<T, R> slim,
      BiFunction<R, String, T> rebuild,
      Function<R, String> groupOf,
      Function<R, String> nameOf) {
    this.slim = slim;
    this.rebuild = rebuild;
    this.groupOf = groupOf;
    this.nameOf = nameOf;
  }

  /** The records of one group, a copy. */
  public Collection<R> group(String group) {
    Map<String, R> records = byGroup.get(group);
    return records == null ? List.of() : List.copyOf(records.values());
  }

  /** The record stored under the informer's key ({@code namespace/name}, or the name). */
  public Optional<R> record(String key) {
    Slim<R> stored = byKey.get(key);
    return stored == null ? Optional.empty() : Optional.of(stored.record());
  }

  /** Every record, a copy. */
  public List<R> records() {
    return byKey.values().stream().map(Slim::record).toList();
  }

  @Override
  public String getKey(T object) {
    return Cache.metaNamespaceKeyFunc(object);
  }

  @Override
  public T put(String key, T object) {
    R record = slim.apply(object);
    Slim<R> previous =
        byKey.put(key, new Slim<>(record, object.getMetadata().getResourceVersion()));
    if (previous != null) {
      ungroup(previous.record());
    }
    if (groupOf != null) {
      byGroup
          .computeIfAbsent(groupOf.apply(record), g -> new ConcurrentHashMap<>())
          .put(nameOf.apply(record), record);
    }
    return rebuilt(previous);
  }

  @Override
  public T remove(String key) {
    Slim<R> previous = byKey.remove(key);
    if (previous != null) {
      ungroup(previous.record());
    }
    return rebuilt(previous);
  }

  @Override
  public Stream<String> keySet() {
    return List.copyOf(byKey.keySet()).stream();
  }

  @Override
  public Stream<T> values() {
    return List.copyOf(byKey.values()).stream().map(this::rebuilt);
  }

  @Override
  public int size() {
    return byKey.size();
  }

  @Override
  public T get(String key) {
    return rebuilt(byKey.get(key));
  }

  private void ungroup(R record) {
    if (groupOf == null) {
      return;
    }
    String group = groupOf.apply(record);
    Map<String, R> records = byGroup.get(group);
    if (records != null) {
      records.remove(nameOf.apply(record));
      if (records.isEmpty()) {
        byGroup.remove(group, records);
      }
    }
  }

  private T rebuilt(Slim<R> stored) {
    return stored == null ? null : rebuild.apply(stored.record(), stored.resourceVersion());
  }
}
