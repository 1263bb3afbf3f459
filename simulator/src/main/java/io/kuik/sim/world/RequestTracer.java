package io.kuik.sim.world;

import io.kuik.sim.time.EventLoop;
import io.kuik.sim.trace.Answer;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.trace.Resource;
import io.kuik.sim.trace.Target;
import io.kuik.sim.trace.Trace;
import io.kuik.sim.trace.TraceRecord;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * The API server's request log: each request it serves becomes one {@link TraceRecord.Request},
 * answered or refused, with what it targeted and whether storage changed.
 */
final class RequestTracer {

  private final EventLoop loop;
  private final Trace trace;
  private final Storage storage;

  RequestTracer(EventLoop loop, Trace trace, Storage storage) {
    this.loop = loop;
    this.trace = trace;
    this.storage = storage;
  }

  /** How a served request is answered, from its result, its code and whether storage changed. */
  interface Answering<T> {
    Answer of(T result, int code, boolean wrote);
  }

  ObjectNode write(
      Identity identity, RequestKind kind, ObjectNode body, Supplier<ObjectNode> call) {
    return write(identity, kind, null, body, call);
  }

  ObjectNode write(
      Identity identity,
      RequestKind kind,
      String subresource,
      ObjectNode body,
      Supplier<ObjectNode> call) {
    return write(identity, kind, subresource, body, call, written(kind));
  }

  ObjectNode write(
      Identity identity,
      RequestKind kind,
      String subresource,
      ObjectNode body,
      Supplier<ObjectNode> call,
      Answering<ObjectNode> answering) {
    Resource resource;
    String ns;
    boolean exists = false;
    try {
      ResourceType type = Decoding.typeOf(body);
      resource = resource(type);
      ns = Writes.ns(type, Meta.namespace(body));
      exists = Meta.name(body) != null && storage.stored(type, ns, Meta.name(body)) != null;
    } catch (ApiException e) {
      resource = new Resource(Json.text(body, "kind") == null ? "?" : Json.text(body, "kind"));
      ns = Meta.namespace(body);
    }
    boolean creates =
        kind == RequestKind.CREATE || kind == RequestKind.APPLY && !exists && subresource == null;
    String name = Meta.name(body);
    if (name == null || name.isEmpty()) {
      String generate = Json.text(body, "metadata", "generateName");
      name = generate == null ? "" : generate + "*";
    }
    return traced(
        identity,
        kind,
        new Target(resource, subresource, ns, name, null),
        creates,
        call,
        answering);
  }

  /**
   * A write's answer: its resourceVersion, and for an apply, update or patch whether it changed
   * nothing (storage's resourceVersion did not move).
   */
  static Answering<ObjectNode> written(RequestKind kind) {
    boolean mayBeNoOp =
        kind == RequestKind.APPLY || kind == RequestKind.UPDATE || kind == RequestKind.PATCH;
    return (result, code, wrote) ->
        new Answer.Written(code, Meta.resourceVersion(result), mayBeNoOp && !wrote);
  }

  <T> T traced(
      Identity identity, RequestKind kind, Target target, Supplier<T> call, Answering<T> answer) {
    return traced(identity, kind, target, false, call, answer);
  }

  <T> T traced(
      Identity identity,
      RequestKind kind,
      Target target,
      boolean created,
      Supplier<T> call,
      Answering<T> answer) {
    String before = storage.resourceVersion();
    var actor = trace.actorOf(identity);
    try {
      T result = call.get();
      boolean wrote = !before.equals(storage.resourceVersion());
      trace.add(
          new TraceRecord.Request(
              loop.now(), actor, kind, target, answer.of(result, created ? 201 : 200, wrote)));
      return result;
    } catch (ApiException e) {
      trace.add(
          new TraceRecord.Request(
              loop.now(),
              actor,
              kind,
              target,
              new Answer.Refused(
                  e.code(), e.stage(), e.getMessage() == null ? "" : e.getMessage())));
      throw e;
    }
  }

  static Resource resource(ResourceType type) {
    return new Resource(type.resource());
  }
}
