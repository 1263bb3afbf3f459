package io.kuik.sim.world;

import io.kuik.sim.time.EventLoop;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.object.Timestamps;
import java.time.Instant;
import tools.jackson.databind.node.ObjectNode;

/**
 * Records core/v1 Events about objects, as client-go's recorder writes them: named {@code
 * <object>.<hex nanos>}, in the object's namespace ("default" for a cluster-scoped object), created
 * through the API under the recording identity (so RBAC applies).
 */
public final class EventRecorder {

  /** The Event types. */
  public enum Type {
    NORMAL("Normal"),
    WARNING("Warning");

    private final String value;

    Type(String value) {
      this.value = value;
    }

    public String value() {
      return value;
    }
  }

  private final ApiServer api;
  private final EventLoop loop;
  private Instant lastInstant;
  private long sameInstant;

  public EventRecorder(ApiServer api, EventLoop loop) {
    this.api = api;
    this.loop = loop;
  }

  /**
   * Creates an Event about {@code involved} (any stored object) and returns it.
   *
   * @throws ApiException when the API server refuses the Event
   */
  public ObjectNode record(
      Identity who,
      String component,
      ObjectNode involved,
      Type type,
      String reason,
      String message) {
    Instant now = loop.now();
    sameInstant = now.equals(lastInstant) ? sameInstant + 1 : 0;
    lastInstant = now;
    long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano() + sameInstant;
    String namespace = Meta.namespace(involved) == null ? "default" : Meta.namespace(involved);
    String time = Timestamps.format(now);

    ObjectNode event = Json.object();
    event.put("apiVersion", "v1");
    event.put("kind", "Event");
    ObjectNode meta = event.putObject("metadata");
    meta.put("name", Meta.name(involved) + "." + Long.toHexString(nanos));
    meta.put("namespace", namespace);
    ObjectNode ref = event.putObject("involvedObject");
    ref.put("apiVersion", Json.text(involved, "apiVersion"));
    ref.put("kind", Json.text(involved, "kind"));
    ref.put("name", Meta.name(involved));
    if (Meta.namespace(involved) != null) {
      ref.put("namespace", Meta.namespace(involved));
    }
    if (Meta.uid(involved) != null) {
      ref.put("uid", Meta.uid(involved));
    }
    if (Meta.resourceVersion(involved) != null) {
      ref.put("resourceVersion", Meta.resourceVersion(involved));
    }
    event.put("reason", reason);
    event.put("message", message);
    event.put("type", type.value());
    event.put("count", 1);
    event.put("firstTimestamp", time);
    event.put("lastTimestamp", time);
    event.putObject("source").put("component", component);
    event.put("reportingComponent", component);
    return api.create(who, event);
  }
}
