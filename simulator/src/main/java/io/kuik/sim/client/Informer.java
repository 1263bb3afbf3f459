package io.kuik.sim.client;

import io.kuik.sim.time.EventLoop;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.ObjectList;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.LabelSelector;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.watch.Watch;
import io.kuik.sim.world.watch.WatchEvent;
import io.kuik.sim.world.watch.WatchHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import tools.jackson.databind.node.ObjectNode;

/**
 * A client-side informer, as client-go's shared informer behaves: list, then watch from there; a
 * local cache; add/update/delete handlers; on a watch that expires (410 Gone), list again and
 * reconcile the cache (objects that vanished are deleted, the others re-delivered as updates); a
 * periodic resync that re-delivers every cached object as an update. A failed list or watch is
 * retried with backoff (800 ms doubling to 30 s). Its requests carry its identity, so RBAC applies
 * to them.
 *
 * <p>Handlers run on the event loop, one event at a time; they receive copies.
 */
public final class Informer {

  /** Reacts to the informer's cache changes. */
  public interface Handler {
    default void onAdd(ObjectNode object) {}

    default void onUpdate(ObjectNode old, ObjectNode now) {}

    default void onDelete(ObjectNode last) {}
  }

  static final Duration FIRST_BACKOFF = Duration.ofMillis(800);
  static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

  private final ApiServer api;
  private final EventLoop loop;
  private final Identity identity;
  private final String name;
  private final ResourceType type;
  private final String namespace;
  private final LabelSelector selector;
  private final String objectName;
  private final Duration resyncPeriod;
  private final List<Handler> handlers = new ArrayList<>();
  private final Map<String, ObjectNode> cache = new TreeMap<>();
  private Watch watch;
  private boolean synced;
  private int failures;
  // Timers are never cancelled: each carries the incarnation it belongs to and does nothing
  // once the informer has been stopped or restarted.
  private int incarnation;
  private boolean running;

  /**
   * @param name the watcher's name in the trace and for watch faults, e.g. {@code syncer/secrets}
   * @param namespace null for all namespaces
   * @param resyncPeriod zero for no resync
   */
  public Informer(
      ApiServer api,
      Identity identity,
      String name,
      ResourceType type,
      String namespace,
      LabelSelector selector,
      Duration resyncPeriod) {
    this(api, identity, name, type, namespace, selector, null, resyncPeriod);
  }

  /**
   * An informer of the one object named {@code objectName} (none: every object), listed and watched
   * with the field selector {@code metadata.name}, as client-go's informer of a named object does.
   */
  public Informer(
      ApiServer api,
      Identity identity,
      String name,
      ResourceType type,
      String namespace,
      LabelSelector selector,
      String objectName,
      Duration resyncPeriod) {
    this.api = Objects.requireNonNull(api, "api");
    this.loop = api.loop();
    this.identity = Objects.requireNonNull(identity, "identity");
    this.name = Objects.requireNonNull(name, "name");
    this.type = Objects.requireNonNull(type, "type");
    this.namespace = namespace;
    this.selector = selector == null ? LabelSelector.EVERYTHING : selector;
    this.objectName = objectName;
    this.resyncPeriod = resyncPeriod == null ? Duration.ZERO : resyncPeriod;
  }

  public Informer addHandler(Handler handler) {
    handlers.add(handler);
    return this;
  }

  /** Lists (in the next loop step), then watches; schedules the resync. */
  public void start() {
    if (running) {
      return;
    }
    running = true;
    int mine = ++incarnation;
    loop.schedule(Duration.ZERO, "informer " + name + " list", () -> listAndWatch(mine));
    if (!resyncPeriod.isZero()) {
      loop.schedule(resyncPeriod, "informer " + name + " resync", () -> resync(mine));
    }
  }

  /** Stops watching and forgets the cache, as a process that exits. */
  public void stop() {
    running = false;
    incarnation++;
    if (watch != null) {
      watch.stop();
      watch = null;
    }
    cache.clear();
    synced = false;
  }

  /** True once the first list has been delivered to the handlers. */
  public boolean hasSynced() {
    return synced;
  }

  public String name() {
    return name;
  }

  public Optional<ObjectNode> get(String namespace, String name) {
    ObjectNode o = cache.get(key(namespace, name));
    return o == null ? Optional.empty() : Optional.of(o.deepCopy());
  }

  /** Copies of every cached object, in key order. */
  public List<ObjectNode> list() {
    List<ObjectNode> out = new ArrayList<>();
    cache.values().forEach(o -> out.add(o.deepCopy()));
    return out;
  }

  private void listAndWatch(int mine) {
    if (mine != incarnation) {
      return;
    }
    ObjectList listed;
    try {
      listed = api.list(identity, type, namespace, selector, objectName);
      watch =
          api.watch(
              identity,
              type,
              namespace,
              selector,
              objectName,
              name,
              new WatchHandler() {
                @Override
                public void onEvent(WatchEvent event) {
                  if (mine == incarnation) {
                    handle(event);
                  }
                }

                @Override
                public void onExpired(String message) {
                  if (mine == incarnation) {
                    watch = null;
                    loop.schedule(
                        FIRST_BACKOFF, "informer " + name + " relist", () -> listAndWatch(mine));
                  }
                }
              });
    } catch (ApiException e) {
      failures++;
      Duration backoff = FIRST_BACKOFF.multipliedBy(1L << Math.min(failures - 1, 10));
      loop.schedule(
          backoff.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff,
          "informer " + name + " list retry",
          () -> listAndWatch(mine));
      return;
    }
    failures = 0;
    replace(listed.items());
    synced = true;
  }

  // client-go's Replace: every listed object is an add or an update, every cached object the
  // list no longer has is a delete.
  private void replace(List<ObjectNode> items) {
    Map<String, ObjectNode> listed = new TreeMap<>();
    for (ObjectNode item : items) {
      listed.put(Meta.key(item), item);
    }
    for (ObjectNode item : items) {
      upsert(item);
    }
    for (String key : new ArrayList<>(cache.keySet())) {
      if (!listed.containsKey(key)) {
        ObjectNode gone = cache.remove(key);
        handlers.forEach(h -> h.onDelete(gone.deepCopy()));
      }
    }
  }

  private void handle(WatchEvent event) {
    if (event.type() == WatchEvent.Type.DELETED) {
      ObjectNode gone = cache.remove(Meta.key(event.object()));
      if (gone != null) {
        handlers.forEach(h -> h.onDelete(event.object().deepCopy()));
      }
      return;
    }
    upsert(event.object());
  }

  private void upsert(ObjectNode object) {
    ObjectNode previous = cache.put(Meta.key(object), object);
    if (previous == null) {
      handlers.forEach(h -> h.onAdd(object.deepCopy()));
    } else {
      handlers.forEach(h -> h.onUpdate(previous.deepCopy(), object.deepCopy()));
    }
  }

  private void resync(int mine) {
    if (mine != incarnation) {
      return;
    }
    for (ObjectNode o : new ArrayList<>(cache.values())) {
      handlers.forEach(h -> h.onUpdate(o.deepCopy(), o.deepCopy()));
    }
    loop.schedule(resyncPeriod, "informer " + name + " resync", () -> resync(mine));
  }

  private String key(String namespace, String name) {
    return type.namespaced() ? namespace + "/" + name : name;
  }
}
