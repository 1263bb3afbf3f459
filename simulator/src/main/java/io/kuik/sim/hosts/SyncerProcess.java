package io.kuik.sim.hosts;

import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.model.ResourceId;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.RewrittenPod;
import io.kuik.ports.EventRecorder;
import io.kuik.ports.Scheduler;
import io.kuik.ports.SecretWriter;
import io.kuik.ports.StatusWriter;
import io.kuik.sim.client.Informer;
import io.kuik.sim.trace.Note;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.LabelSelector;
import io.kuik.sim.world.object.Meta;
import io.kuik.syncer.SecretSyncer;
import io.kuik.syncer.SyncerSettings;
import io.kuik.syncer.WriteBounds;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import tools.jackson.databind.node.ObjectNode;

/**
 * One incarnation of the syncer process: its informers, its typed view of their caches, the ports
 * the core calls, and the core itself. Nothing outlives {@link #halt()}: timers scheduled by a
 * halted incarnation find it dead and do nothing.
 */
final class SyncerProcess implements Scheduler, SecretWriter, StatusWriter, EventRecorder {

  private static final Duration SYNC_POLL = Duration.ofMillis(100);

  /** How often the admission policy and its binding are read, as the production default. */
  static final Duration BOUNDS_PERIOD = Duration.ofSeconds(5);

  /**
   * The default round trip of an apply: it reaches the API server after half of it and its answer
   * comes back after the other half, so that applies are in flight for a while, as over a network.
   */
  static final Duration ROUND_TRIP = Duration.ofMillis(20);

  private final ApiServer api;
  private final Identity identity;
  private final SyncerSettings settings;
  private final Duration resyncPeriod;
  private final String name;
  private final TypedCaches caches = new TypedCaches();
  private final io.kuik.sim.world.EventRecorder events;
  private final List<Informer> informers;
  private SecretSyncer syncer;
  private java.util.function.Consumer<Boolean> readiness = ready -> {};
  private boolean alive = true;
  private Duration roundTrip = ROUND_TRIP;

  /** The policy and binding to read, null when this process writes unbounded (a bare test). */
  private final SyncerHost.Bounds boundsNames;

  private WriteBounds bounds;

  SyncerProcess(
      ApiServer api,
      Identity identity,
      SyncerSettings settings,
      Duration resyncPeriod,
      String name,
      SyncerHost.Bounds boundsNames) {
    this.api = api;
    this.boundsNames = boundsNames;
    this.bounds =
        boundsNames == null
            ? new WriteBounds(true, "no admission policy to wait for")
            : WriteBounds.unreadable("the admission policy and its binding have not been read yet");
    this.identity = identity;
    this.settings = settings;
    this.resyncPeriod = resyncPeriod;
    this.name = name;
    this.events = new io.kuik.sim.world.EventRecorder(api, api.loop());
    this.informers =
        List.of(
            informer("imagealternatives", ResourceType.IMAGE_ALTERNATIVE, null),
            informer("imagemirrors", ResourceType.IMAGE_MIRROR, null),
            informer("namespaces", ResourceType.NAMESPACE, null),
            // Only the pods the webhook rewrote, selected by the API server as the production
            // informer asks (the label of RewriteAnnotations).
            HostInformers.feeding(
                api,
                identity,
                name + "/pods",
                ResourceType.POD,
                null,
                LabelSelector.parse(RewriteAnnotations.REWRITTEN_SELECTOR),
                this::changed),
            informer("secrets", ResourceType.SECRET, settings.clusterResourceNamespace()));
  }

  void start() {
    informers.forEach(Informer::start);
    if (boundsNames != null) {
      checkBounds();
    }
    api.loop().schedule(SYNC_POLL, name + " waits for informers", this::startWhenSynced);
  }

  /** Whether the policy that bounds the writes was last found in place, and why not. */
  WriteBounds bounds() {
    return bounds;
  }

  /** As /readyz: informers synced and the policy in place. */
  boolean ready() {
    return alive && informers.stream().allMatch(Informer::hasSynced) && bounds.inPlace();
  }

  /**
   * Reads the policy and its binding by name under the syncer's identity, as the production driver
   * does every 5 seconds, and acts on a changed decision: writes held, or released with a resync.
   */
  private void checkBounds() {
    if (!alive) {
      return;
    }
    WriteBounds now;
    try {
      now =
          WriteBounds.judge(
              boundsNames.policy(),
              read(ResourceType.VALIDATING_ADMISSION_POLICY, boundsNames.policy()),
              boundsNames.binding(),
              read(ResourceType.VALIDATING_ADMISSION_POLICY_BINDING, boundsNames.binding()));
    } catch (ApiException failed) {
      now =
          failed.code() == 403
              ? WriteBounds.unreadable("the syncer may not get the admission policy: " + failed)
              : bounds; // says nothing of them: keep the last decision
    }
    if (!now.equals(bounds)) {
      boolean released = now.inPlace() && !bounds.inPlace();
      bounds = now;
      api.trace()
          .add(
              new Note.WriteBounds(
                  api.loop().now(), api.trace().actorOf(identity), now.inPlace(), now.why()));
      if (released && syncer != null) {
        syncer.onResync();
        syncer.onWakeup();
      }
      if (syncer != null) {
        readiness.accept(ready());
      }
    }
    api.loop().schedule(BOUNDS_PERIOD, name + " reads its admission policy", this::checkBounds);
  }

  private WriteBounds.Observed read(ResourceType type, String objectName) {
    try {
      ObjectNode found = api.get(identity, type, null, objectName);
      if (type.equals(ResourceType.VALIDATING_ADMISSION_POLICY)) {
        return WriteBounds.Observed.policy(Meta.deletionTimestamp(found) != null);
      }
      java.util.List<String> actions = new java.util.ArrayList<>();
      found.path("spec").path("validationActions").forEach(a -> actions.add(a.asString()));
      return WriteBounds.Observed.binding(
          Meta.deletionTimestamp(found) != null, Json.text(found, "spec", "policyName"), actions);
    } catch (ApiException missing) {
      if (missing.code() == 404) {
        return WriteBounds.Observed.MISSING;
      }
      throw missing;
    }
  }

  void halt() {
    alive = false;
    informers.forEach(Informer::stop);
  }

  Optional<SecretSyncer> syncer() {
    return Optional.ofNullable(syncer);
  }

  /**
   * Told when /readyz starts passing (informers synced, the core started, the policy in place) and
   * when it stops or passes again as the policy goes and comes back.
   */
  void onReadiness(java.util.function.Consumer<Boolean> readiness) {
    this.readiness = readiness;
  }

  /** From now on each apply takes this long to be answered (a slow or distant API server). */
  void roundTrip(Duration value) {
    roundTrip = value;
  }

  private void startWhenSynced() {
    if (!alive) {
      return;
    }
    if (!informers.stream().allMatch(Informer::hasSynced) || !bounds.inPlace()) {
      api.loop().schedule(SYNC_POLL, name + " waits for informers", this::startWhenSynced);
      return;
    }
    syncer =
        new SecretSyncer(
            settings,
            api.loop(),
            this,
            caches,
            this,
            this,
            io.kuik.syncer.SyncerObserver.NONE,
            (StatusWriter) this);
    syncer.start();
    readiness.accept(true);
    if (!resyncPeriod.isZero()) {
      api.loop().schedule(resyncPeriod, name + " resync", this::resync);
    }
  }

  private void resync() {
    if (!alive) {
      return;
    }
    syncer.onResync();
    api.loop().schedule(resyncPeriod, name + " resync", this::resync);
  }

  // ---- informers feed the caches, then the core -------------------------------------------

  private Informer informer(String what, ResourceType type, String namespace) {
    return HostInformers.feeding(api, identity, name + "/" + what, type, namespace, this::changed);
  }

  private void changed(ResourceType type, ObjectNode before, ObjectNode after) {
    if (!alive) {
      return;
    }
    TypedCaches.Change change = caches.apply(type, before, after);
    if (syncer == null) {
      return; // the first lists: start() reconciles everything they brought
    }
    if (type.equals(ResourceType.POD)) {
      RewrittenPod was = (RewrittenPod) change.before();
      RewrittenPod is = (RewrittenPod) change.after();
      if (was == null
          || !was.equals(is)) { // as the production driver: a status update changes no record
        syncer.onPodChanged(was, is);
      }
    } else if (type.equals(ResourceType.NAMESPACE)) {
      String ns = Meta.name(after != null ? after : before);
      if (after == null) {
        syncer.onNamespaceDeleted(ns);
      } else {
        syncer.onNamespaceChanged(ns);
      }
    } else if (type.equals(ResourceType.SECRET)) {
      syncer.onClusterSecretChanged(Meta.name(after != null ? after : before));
    } else {
      ResourceId id = TypedCaches.resourceId(type, after != null ? after : before);
      if (before != null && after != null && sameSpec(before, after)) {
        return; // only its status or metadata changed, e.g. the syncer's own status write
      }
      if (after == null) {
        syncer.onResourceDeleted(id);
      } else {
        syncer.onResourceChanged(id);
      }
    }
  }

  private static boolean sameSpec(ObjectNode before, ObjectNode after) {
    return java.util.Objects.equals(before.get("spec"), after.get("spec"))
        && java.util.Objects.equals(Meta.uid(before), Meta.uid(after));
  }

  // ---- ports -------------------------------------------------------------------------------

  @Override
  public void wakeAt(Instant at) {
    Instant now = api.loop().now();
    api.loop()
        .scheduleAt(
            at.isBefore(now) ? now : at,
            name + " wakes",
            () -> {
              // While the policy is missing the core is not woken; checkBounds wakes it after.
              if (alive && syncer != null && bounds.inPlace()) {
                syncer.onWakeup();
              }
            });
  }

  /**
   * The apply reaches the API server half a round trip later, and its answer the core after the
   * other half, on the virtual clock. A process halted meanwhile sends nothing, or hears nothing.
   */
  @Override
  public void apply(Secret secret, Consumer<Outcome> answered) {
    ObjectNode body = Json.MAPPER.valueToTree(secret);
    Json.dropNulls(body);
    Duration half = roundTrip.dividedBy(2);
    api.loop()
        .schedule(
            half,
            name + " applies " + secret.getMetadata().getName(),
            () -> {
              if (!alive) {
                return;
              }
              Outcome outcome = send(body);
              api.loop()
                  .schedule(
                      roundTrip.minus(half),
                      name + " hears of " + secret.getMetadata().getName(),
                      () -> {
                        if (alive) {
                          answered.accept(outcome);
                        }
                      });
            });
  }

  private Outcome send(ObjectNode body) {
    if (!bounds.inPlace()) {
      // The production write fence: an apply on its way when the policy went is not sent.
      return new Refused(
          0,
          "NoAdmissionPolicy",
          "the admission policy that bounds the syncer's writes is not in place; nothing was sent");
    }
    try {
      api.apply(identity, body, SecretWriter.FIELD_MANAGER, true);
      return new Applied();
    } catch (ApiException refused) {
      return new Refused(refused.code(), refused.reason(), refused.getMessage());
    }
  }

  @Override
  public boolean apply(Status status) {
    if (!bounds.inPlace()) {
      return false;
    }
    ObjectNode body = Json.MAPPER.valueToTree(status.applyConfiguration());
    try {
      api.applyStatus(identity, body, StatusWriter.FIELD_MANAGER, true);
      return true;
    } catch (ApiException refused) {
      return false;
    }
  }

  @Override
  public void record(ResourceId resource, String uid, Type type, String reason, String message) {
    ObjectNode involved = Json.object();
    involved.put("apiVersion", "kuik.enix.io/v1alpha1");
    involved.put("kind", resource.kind().kind());
    ObjectNode meta = involved.putObject("metadata");
    meta.put("name", resource.name());
    if (uid != null) {
      meta.put("uid", uid);
    }
    recordOn(involved, type, reason, message);
  }

  @Override
  public void recordOnPod(
      String namespace, String pod, String uid, Type type, String reason, String message) {
    ObjectNode involved = Json.object();
    involved.put("apiVersion", "v1");
    involved.put("kind", "Pod");
    ObjectNode meta = involved.putObject("metadata");
    meta.put("name", pod);
    meta.put("namespace", namespace);
    if (uid != null) {
      meta.put("uid", uid);
    }
    recordOn(involved, type, reason, message);
  }

  private void recordOn(ObjectNode involved, Type type, String reason, String message) {
    if (!bounds.inPlace()) {
      return; // as the production recorder, behind the same fence
    }
    try {
      events.record(
          identity,
          "kuik-secret-syncer",
          involved,
          type == Type.Warning
              ? io.kuik.sim.world.EventRecorder.Type.WARNING
              : io.kuik.sim.world.EventRecorder.Type.NORMAL,
          reason,
          message);
    } catch (ApiException dropped) {
      // As the production recorder: an Event that cannot be recorded is dropped, never retried.
    }
  }
}
