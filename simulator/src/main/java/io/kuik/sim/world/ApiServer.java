package io.kuik.sim.world;

import io.kuik.sim.time.EventLoop;
import io.kuik.sim.trace.Answer;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.trace.Resource;
import io.kuik.sim.trace.Target;
import io.kuik.sim.trace.Trace;
import io.kuik.sim.world.api.Authorizer;
import io.kuik.sim.world.api.ClusterState;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.RequestAttributes;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.api.ValidatingAdmission;
import io.kuik.sim.world.api.Verb;
import io.kuik.sim.world.crd.CustomResources;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.LabelSelector;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.object.Timestamps;
import io.kuik.sim.world.watch.Watch;
import io.kuik.sim.world.watch.WatchEvent;
import io.kuik.sim.world.watch.WatchHandler;
import io.kuik.sim.world.watch.WatchInfo;
import io.kuik.sim.world.watch.Watches;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The fake API server: every request carries an {@link Identity}, goes through the stages of {@link
 * Pipeline} and {@link Writes}, is traced, and fails with an {@link ApiException} carrying the
 * code, reason and message the real server would send. Objects are JSON trees exactly as the server
 * would return them; callers always get copies.
 *
 * <p>It starts with the namespaces a cluster always has (default, kube-system, kube-public,
 * kube-node-lease), and runs its garbage collector and namespace controller on the event loop, and
 * the ServiceAccount controller that gives every namespace its {@code default} ServiceAccount.
 */
public final class ApiServer {

  private final EventLoop loop;
  private final Trace trace;
  private final Storage storage;
  private final Watches watches;
  private final RequestFaults faults = new RequestFaults();
  private final MutatingChain mutating;
  private final Pipeline pipeline;
  private final Writes writes;
  private final GarbageCollector garbageCollector;
  private final RequestTracer tracer;

  public ApiServer(EventLoop loop, Trace trace) {
    this.loop = loop;
    this.trace = trace;
    this.storage = new Storage(loop.fork("storage"));
    this.tracer = new RequestTracer(loop, trace, storage);
    this.watches = new Watches(loop, trace);
    this.mutating =
        new MutatingChain(
            trace,
            loop::now,
            namespace -> {
              ObjectNode stored = storage.stored(ResourceType.NAMESPACE, null, namespace);
              return stored == null ? Map.of() : Meta.labels(stored);
            });
    NamespaceLifecycle namespaces = new NamespaceLifecycle(storage, loop);
    ServiceAccounts serviceAccounts = new ServiceAccounts(storage, loop);
    this.pipeline =
        new Pipeline(faults, namespaces, serviceAccounts, mutating, new CustomResources(storage));
    this.writes = new Writes(storage, pipeline, loop);
    this.garbageCollector = new GarbageCollector(storage, loop);
    bootstrap();
    storage.addListener(
        c ->
            watches.publish(
                c.type(), WatchEvent.Type.valueOf(c.kind().name()), c.object(), c.previous()));
    storage.addListener(garbageCollector);
    storage.addListener(namespaces);
    storage.addListener(serviceAccounts);
    serviceAccounts.bootstrap();
    garbageCollector.attach(this);
    namespaces.attach(this);
  }

  // ---- seams -------------------------------------------------------------------------------

  /** The authorization stage (RBAC); {@link Authorizer#ALLOW_ALL} until set. */
  public void setAuthorizer(Authorizer authorizer) {
    pipeline.setAuthorizer(authorizer);
  }

  /** The validating admission stage; {@link ValidatingAdmission#ADMIT_ALL} until set. */
  public void setValidatingAdmission(ValidatingAdmission validating) {
    pipeline.setValidating(validating);
  }

  /**
   * Switches the OwnerReferencesPermissionEnforcement admission plugin on, as OpenShift runs it, or
   * off, the upstream default: see {@link OwnerReferencesPermissionEnforcement}.
   */
  public void setOwnerReferencesPermissionEnforcement(boolean enforced) {
    pipeline.setOwnerReferencesPermissionEnforcement(enforced);
  }

  /** The mutating admission webhooks (e.g. the pod webhook). */
  public MutatingChain mutatingAdmission() {
    return mutating;
  }

  /** 429/503 faults of the server itself. */
  public RequestFaults faults() {
    return faults;
  }

  /** Watch delivery delay, faults and expiry. */
  public Watches watches() {
    return watches;
  }

  /** Untraced, identity-less reads for the server's own stages (authorizer, admission). */
  public ClusterState state() {
    return storage;
  }

  /** How long the garbage collector takes to react to a change (default 1 s). */
  public void setGarbageCollectorDelay(Duration delay) {
    garbageCollector.setDelay(delay);
  }

  /**
   * As after a new encryption key: every stored object counts as stale, so the next update of each
   * is written (a new resourceVersion) even when nothing changes, as a rewrite to re-encrypt.
   */
  public void rotateEncryptionKey() {
    storage.markAllStale();
  }

  public EventLoop loop() {
    return loop;
  }

  public Trace trace() {
    return trace;
  }

  // ---- reads -------------------------------------------------------------------------------

  public ObjectNode get(Identity identity, ResourceType type, String namespace, String name) {
    String ns = Writes.ns(type, namespace);
    return tracer.traced(
        identity,
        RequestKind.GET,
        Target.object(RequestTracer.resource(type), ns, name),
        () -> {
          pipeline.authorize(new RequestAttributes(identity, Verb.GET, type, ns, name, null));
          ObjectNode stored = storage.stored(type, ns, name);
          if (stored == null) {
            throw ApiException.notFound(type, name);
          }
          return stored.deepCopy();
        },
        (o, code, wrote) -> new Answer.Served(code));
  }

  /** {@link #get}, with 404 as empty. */
  public Optional<ObjectNode> find(
      Identity identity, ResourceType type, String namespace, String name) {
    try {
      return Optional.of(get(identity, type, namespace, name));
    } catch (ApiException e) {
      if (e.code() == 404) {
        return Optional.empty();
      }
      throw e;
    }
  }

  public ObjectList list(Identity identity, ResourceType type, String namespace) {
    return list(identity, type, namespace, LabelSelector.EVERYTHING);
  }

  /** Objects of a type in one namespace (null: all), filtered by the selector, in key order. */
  public ObjectList list(
      Identity identity, ResourceType type, String namespace, LabelSelector selector) {
    return list(identity, type, namespace, selector, null);
  }

  /**
   * The same, with the field selector {@code metadata.name=<name>} when {@code name} is not null:
   * the request is then authorized as one for that name, so that RBAC's resourceNames can grant it
   * (https://github.com/kubernetes/kubernetes/blob/v1.34.0/staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go,
   * {@code NewRequestInfo}: a list or watch whose field selector requires one metadata.name).
   */
  public ObjectList list(
      Identity identity, ResourceType type, String namespace, LabelSelector selector, String name) {
    String ns = Writes.ns(type, namespace);
    return tracer.traced(
        identity,
        RequestKind.LIST,
        new Target(
            RequestTracer.resource(type),
            null,
            ns,
            name == null ? "*" : name,
            selector.isEverything() ? null : selector.toString()),
        () -> {
          pipeline.authorize(new RequestAttributes(identity, Verb.LIST, type, ns, name, null));
          List<ObjectNode> items = new ArrayList<>();
          for (ObjectNode o : storage.storedList(type, ns)) {
            if (selector.matches(o) && (name == null || name.equals(Meta.name(o)))) {
              items.add(o.deepCopy());
            }
          }
          return new ObjectList(items, storage.resourceVersion());
        },
        (l, code, wrote) -> new Answer.Listed(code, l.items().size()));
  }

  /**
   * Opens a watch from now on: the events of every later write, in commit order. A client that
   * lists and then watches in the same loop step misses nothing, as a watch from the list's
   * resourceVersion would.
   */
  public Watch watch(
      Identity identity,
      ResourceType type,
      String namespace,
      LabelSelector selector,
      String watcher,
      WatchHandler handler) {
    return watch(identity, type, namespace, selector, null, watcher, handler);
  }

  /** The same, of the one object named {@code name} when not null (see {@link #list}). */
  public Watch watch(
      Identity identity,
      ResourceType type,
      String namespace,
      LabelSelector selector,
      String name,
      String watcher,
      WatchHandler handler) {
    String ns = Writes.ns(type, namespace);
    WatchHandler named =
        name == null
            ? handler
            : new WatchHandler() {
              @Override
              public void onEvent(WatchEvent event) {
                if (name.equals(Meta.name(event.object()))) {
                  handler.onEvent(event);
                }
              }

              @Override
              public void onExpired(String message) {
                handler.onExpired(message);
              }
            };
    return tracer.traced(
        identity,
        RequestKind.WATCH,
        Target.object(RequestTracer.resource(type), ns, name == null ? "*" : name),
        () -> {
          pipeline.authorize(new RequestAttributes(identity, Verb.WATCH, type, ns, name, null));
          return watches.open(new WatchInfo(watcher, identity, type, ns), selector, named);
        },
        (w, code, wrote) -> new Answer.Served(code));
  }

  // ---- writes ------------------------------------------------------------------------------

  public ObjectNode create(Identity identity, ObjectNode object) {
    return create(identity, object, defaultManager(identity));
  }

  public ObjectNode create(Identity identity, ObjectNode object, String fieldManager) {
    return tracer.write(
        identity, RequestKind.CREATE, object, () -> writes.create(identity, object, fieldManager));
  }

  /**
   * A create sent with {@code dryRun=All}: authorized, admitted (mutating and validating, the
   * webhooks told it is a dry run) and validated as a real create, then not stored; the answer is
   * the object as it would have been stored, without a resourceVersion
   * (https://kubernetes.io/docs/reference/using-api/api-concepts/#dry-run). Nothing changes in
   * storage, so no watch hears of it.
   */
  public ObjectNode createDryRun(Identity identity, ObjectNode object) {
    return tracer.write(
        identity,
        RequestKind.CREATE,
        null,
        object,
        () -> writes.create(identity, object, defaultManager(identity), true),
        (result, code, wrote) -> new Answer.DryRun(code));
  }

  /** A PUT: replaces the object; a non-empty metadata.resourceVersion must be the current one. */
  public ObjectNode update(Identity identity, ObjectNode object) {
    return update(identity, object, defaultManager(identity));
  }

  public ObjectNode update(Identity identity, ObjectNode object, String fieldManager) {
    return tracer.write(
        identity, RequestKind.UPDATE, object, () -> writes.update(identity, object, fieldManager));
  }

  /** A PUT on the status subresource: only {@code status} changes. */
  public ObjectNode updateStatus(Identity identity, ObjectNode object) {
    return tracer.write(
        identity,
        RequestKind.UPDATE,
        "status",
        object,
        () -> writes.updateStatus(identity, object, defaultManager(identity)));
  }

  /** Server-side apply as {@code fieldManager}; creates the object when missing. */
  public ObjectNode apply(
      Identity identity, ObjectNode configuration, String fieldManager, boolean force) {
    return tracer.write(
        identity,
        RequestKind.APPLY,
        configuration,
        () -> writes.apply(identity, configuration, fieldManager, force));
  }

  /** Server-side apply on the status subresource as {@code fieldManager}: only status changes. */
  public ObjectNode applyStatus(
      Identity identity, ObjectNode configuration, String fieldManager, boolean force) {
    return tracer.write(
        identity,
        RequestKind.APPLY,
        "status",
        configuration,
        () -> writes.applyStatus(identity, configuration, fieldManager, force));
  }

  /** A JSON Patch (RFC 6902) of an existing object. */
  public ObjectNode jsonPatch(
      Identity identity,
      ResourceType type,
      String namespace,
      String name,
      JsonNode patch,
      String fieldManager) {
    String ns = Writes.ns(type, namespace);
    return tracer.traced(
        identity,
        RequestKind.PATCH,
        Target.object(RequestTracer.resource(type), ns, name),
        () -> writes.jsonPatch(identity, type, ns, name, patch, fieldManager),
        RequestTracer.written(RequestKind.PATCH));
  }

  /** A JSON merge patch (RFC 7386) of an existing object. */
  public ObjectNode mergePatch(
      Identity identity,
      ResourceType type,
      String namespace,
      String name,
      JsonNode patch,
      String fieldManager) {
    String ns = Writes.ns(type, namespace);
    return tracer.traced(
        identity,
        RequestKind.PATCH,
        Target.object(RequestTracer.resource(type), ns, name),
        () -> writes.mergePatch(identity, type, ns, name, patch, fieldManager),
        RequestTracer.written(RequestKind.PATCH));
  }

  public ObjectNode delete(Identity identity, ResourceType type, String namespace, String name) {
    return delete(identity, type, namespace, name, DeleteOptions.background());
  }

  /**
   * Deletes, or marks deleted when finalizers remain (Orphan adds the "orphan" finalizer and
   * Foreground the "foregroundDeletion" one, which the garbage collector honours). Returns the
   * object's last state.
   */
  public ObjectNode delete(
      Identity identity, ResourceType type, String namespace, String name, DeleteOptions options) {
    String ns = Writes.ns(type, namespace);
    return tracer.traced(
        identity,
        RequestKind.DELETE,
        Target.object(RequestTracer.resource(type), ns, name),
        () -> writes.delete(identity, type, ns, name, options),
        RequestTracer.written(RequestKind.DELETE));
  }

  ObjectNode finalizeNamespace(Identity identity, String name, List<String> finalizers) {
    return tracer.traced(
        identity,
        RequestKind.UPDATE,
        new Target(Resource.NAMESPACES, "finalize", null, name, null),
        () -> writes.finalizeNamespace(identity, name, finalizers),
        RequestTracer.written(RequestKind.UPDATE));
  }

  /** The manager name a client gets when it names none: its service account or user name. */
  static String defaultManager(Identity identity) {
    String user = identity.user();
    return user.startsWith("system:serviceaccount:")
        ? user.substring(user.lastIndexOf(':') + 1)
        : user;
  }

  private void bootstrap() {
    for (String name : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
      ObjectNode ns = Json.object();
      ns.put("apiVersion", "v1");
      ns.put("kind", "Namespace");
      ObjectNode meta = ns.putObject("metadata");
      meta.put("name", name);
      meta.put("uid", storage.newUid());
      meta.put("creationTimestamp", Timestamps.format(loop.now()));
      meta.putObject("labels").put("kubernetes.io/metadata.name", name);
      ns.putObject("spec").putArray("finalizers").add("kubernetes");
      ns.putObject("status").put("phase", "Active");
      storage.insert(ResourceType.NAMESPACE, ns);
    }
  }
}
