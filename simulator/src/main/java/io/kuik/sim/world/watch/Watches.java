package io.kuik.sim.world.watch;

import io.kuik.sim.time.EventLoop;
import io.kuik.sim.trace.Resource;
import io.kuik.sim.trace.Target;
import io.kuik.sim.trace.Trace;
import io.kuik.sim.trace.TraceRecord.WatchDelivery;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.LabelSelector;
import io.kuik.sim.world.object.Meta;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import tools.jackson.databind.node.ObjectNode;

/**
 * The API server's watch fan-out. Every committed write is turned into at most one event per open
 * watch of its type (namespace and label selector applied) and handed to the watcher through the
 * event loop after the delivery delay, in commit order per watch unless a fault says otherwise
 * ({@link DeliveryFaults}). Deliveries, drops and expiries are traced.
 */
public final class Watches {

  /** How long a reordered event waits for a successor before it is delivered anyway. */
  static final Duration HOLD_LIMIT = Duration.ofSeconds(1);

  private final EventLoop loop;
  private final Trace trace;
  private DeliveryFaults faults = DeliveryFaults.NONE;
  private final List<Watch> watches = new ArrayList<>();
  private Duration deliveryDelay = Duration.ofMillis(10);

  public Watches(EventLoop loop, Trace trace) {
    this.loop = loop;
    this.trace = trace;
  }

  /** What befalls events on their way from now on. */
  public void setFaults(DeliveryFaults faults) {
    this.faults = java.util.Objects.requireNonNull(faults, "faults");
  }

  public Duration deliveryDelay() {
    return deliveryDelay;
  }

  /** The base latency of every delivery. */
  public void setDeliveryDelay(Duration delay) {
    this.deliveryDelay = delay;
  }

  /** Opens a watch; the caller (the API server) has authorized it. */
  public Watch open(WatchInfo info, LabelSelector selector, WatchHandler handler) {
    Watch watch = new Watch(info, selector == null ? LabelSelector.EVERYTHING : selector, handler);
    watches.add(watch);
    return watch;
  }

  public List<Watch> active() {
    watches.removeIf(w -> !w.active());
    return List.copyOf(watches);
  }

  /**
   * Closes the selected watches as expired: each watcher is told (410 Gone) after the delivery
   * delay; events not yet delivered are lost. Returns how many watches expired.
   */
  public int expire(Predicate<WatchInfo> which) {
    int count = 0;
    for (Watch w : active()) {
      if (which.test(w.info())) {
        w.close();
        count++;
        loop.schedule(
            deliveryDelay,
            "watch " + w.info().name() + " expired",
            () -> {
              trace.add(
                  WatchDelivery.expired(
                      loop.now(),
                      trace.actorOf(w.info().identity()),
                      w.info().name(),
                      Target.watch(resource(w), w.info().namespace())));
              w.handler().onExpired("too old resource version");
            });
      }
    }
    return count;
  }

  /** A committed write; {@code previous} is null for a creation. */
  public void publish(
      ResourceType type, WatchEvent.Type kind, ObjectNode object, ObjectNode previous) {
    for (Watch w : watches) {
      if (!w.active() || !w.info().type().equals(type)) {
        continue;
      }
      String ns = w.info().namespace();
      if (ns != null && !ns.equals(Meta.namespace(object))) {
        continue;
      }
      WatchEvent event = eventFor(w.selector(), kind, object, previous);
      if (event != null) {
        send(w, event);
      }
    }
  }

  private static WatchEvent eventFor(
      LabelSelector selector, WatchEvent.Type kind, ObjectNode object, ObjectNode previous) {
    boolean now = selector.matches(object);
    if (kind == WatchEvent.Type.ADDED || kind == WatchEvent.Type.DELETED) {
      return now ? new WatchEvent(kind, object) : null;
    }
    boolean before = previous != null && selector.matches(previous);
    if (now) {
      return new WatchEvent(before ? WatchEvent.Type.MODIFIED : WatchEvent.Type.ADDED, object);
    }
    if (before) {
      // The object left the selection: the watcher sees its last matching state go away.
      ObjectNode last = previous.deepCopy();
      Meta.metadata(last).put("resourceVersion", Meta.resourceVersion(object));
      return new WatchEvent(WatchEvent.Type.DELETED, last);
    }
    return null;
  }

  private void send(Watch w, WatchEvent event) {
    if (faults.drop(w.info())) {
      traceFate(w, event, WatchDelivery.Fate.DROPPED);
      return;
    }
    if (faults.holdBack(w.info())) {
      w.hold(event);
      loop.schedule(
          HOLD_LIMIT,
          "watch " + w.info().name() + " release held",
          () -> {
            if (w.held() == event) {
              w.hold(null);
              schedule(w, event);
            }
          });
      return;
    }
    schedule(w, event);
    WatchEvent held = w.held();
    if (held != null) {
      w.hold(null);
      schedule(w, held);
    }
  }

  private void schedule(Watch w, WatchEvent event) {
    Instant due = loop.now().plus(deliveryDelay).plus(faults.extraDelay(w.info()));
    if (w.lastDue() != null && due.isBefore(w.lastDue())) {
      due = w.lastDue();
    }
    w.lastDue(due);
    loop.scheduleAt(
        due,
        "watch " + w.info().name(),
        () -> {
          if (!w.active()) {
            return;
          }
          traceFate(w, event, WatchDelivery.Fate.DELIVERED);
          w.handler().onEvent(new WatchEvent(event.type(), event.object().deepCopy()));
        });
  }

  private void traceFate(Watch w, WatchEvent event, WatchDelivery.Fate fate) {
    trace.add(
        new WatchDelivery(
            loop.now(),
            trace.actorOf(w.info().identity()),
            w.info().name(),
            fate,
            typeOf(event.type()),
            Target.object(resource(w), Meta.namespace(event.object()), Meta.name(event.object())),
            Meta.resourceVersion(event.object())));
  }

  private static WatchDelivery.EventType typeOf(WatchEvent.Type type) {
    return switch (type) {
      case ADDED -> WatchDelivery.EventType.ADDED;
      case MODIFIED -> WatchDelivery.EventType.MODIFIED;
      case DELETED -> WatchDelivery.EventType.DELETED;
    };
  }

  private static Resource resource(Watch w) {
    return new Resource(w.info().type().resource());
  }
}
