package io.kuik.sim.hosts;

import io.kuik.kube.syncer.InformerStores;
import io.kuik.kube.syncer.Intake;
import io.kuik.model.RewriteAnnotations;
import io.kuik.sim.client.Informer;
import io.kuik.sim.trace.Note;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.LabelSelector;
import io.kuik.syncer.Answer;
import io.kuik.syncer.Effect;
import io.kuik.syncer.Input;
import io.kuik.syncer.SecretSyncer;
import io.kuik.syncer.SyncerSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * One incarnation of the syncer process, the simulator's executor of the core's effects: its
 * informers, the production caches ({@link InformerStores}) and {@link Intake} they feed, and the
 * core itself, on the virtual clock. Only the transport is its own ({@link SyncerTransport}): the
 * rule that turns a notification into an input, the records it keeps and the core are production's.
 * Every effect is recorded in the trace as it is taken in hand. Nothing outlives {@link #halt()}:
 * timers and answers that reach a halted incarnation find it dead and do nothing.
 */
final class SyncerProcess implements Effect.Executor {

  private static final Duration SYNC_POLL = Duration.ofMillis(100);

  /**
   * The default round trip of a write: it reaches the API server after half of it and its answer
   * comes back after the other half, so that writes are in flight for a while, as over a network.
   */
  static final Duration ROUND_TRIP = Duration.ofMillis(20);

  private final ApiServer api;
  private final Identity identity;
  private final SyncerSettings settings;
  private final String name;
  private final InformerStores stores;
  private final Intake intake;
  private final io.kuik.sim.world.EventRecorder events;
  private final List<Informer> informers;
  private SecretSyncer syncer;
  private boolean alive = true;
  private Duration roundTrip = ROUND_TRIP;

  SyncerProcess(ApiServer api, Identity identity, SyncerSettings settings, String name) {
    this.api = api;
    this.identity = identity;
    this.settings = settings;
    this.name = name;
    this.stores = new InformerStores(settings.clusterResourceNamespace());
    this.intake = new Intake(stores);
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
                this::notified),
            informer("secrets", ResourceType.SECRET, settings.clusterResourceNamespace()));
  }

  void start() {
    informers.forEach(Informer::start);
    api.loop().schedule(SYNC_POLL, name + " waits for informers", this::startWhenSynced);
  }

  void halt() {
    alive = false;
    informers.forEach(Informer::stop);
  }

  Optional<SecretSyncer> syncer() {
    return Optional.ofNullable(syncer);
  }

  /** From now on each write takes this long to be answered (a slow or distant API server). */
  void roundTrip(Duration value) {
    roundTrip = value;
  }

  private void startWhenSynced() {
    if (!alive) {
      return;
    }
    if (!informers.stream().allMatch(Informer::hasSynced)) {
      api.loop().schedule(SYNC_POLL, name + " waits for informers", this::startWhenSynced);
      return;
    }
    syncer = new SecretSyncer(settings, stores);
    handle(intake.started(api.loop().now()));
  }

  private Informer informer(String what, ResourceType type, String namespace) {
    return HostInformers.feeding(api, identity, name + "/" + what, type, namespace, this::notified);
  }

  /** A simulated informer's change: stored, then through the production intake to the core. */
  private void notified(ResourceType type, ObjectNode before, ObjectNode after) {
    if (!alive) {
      return;
    }
    SyncerTransport.stored(stores, type, before, after)
        .flatMap(notification -> intake.input(notification, api.loop().now()))
        .ifPresent(this::handle);
  }

  private void handle(Input input) {
    if (!alive || syncer == null) {
      return;
    }
    for (Effect effect : syncer.handle(input, api.loop().now())) {
      effect.carryOut(this);
    }
  }

  // ---- the effects --------------------------------------------------------------------------

  @Override
  public void apply(Effect.ApplySecret apply) {
    String target =
        "secrets " + apply.pair().namespace() + "/" + apply.secret().getMetadata().getName();
    trace(Note.EffectKind.APPLY, target, apply.lane().label());
    ObjectNode body = Json.MAPPER.valueToTree(apply.secret());
    Json.dropNulls(body);
    roundTrip(
        name + " applies " + apply.secret().getMetadata().getName(),
        () -> send(() -> api.apply(identity, body, Effect.ApplySecret.FIELD_MANAGER, true)),
        answer -> new Input.ApplyAnswered(apply, answer));
  }

  @Override
  public void write(Effect.WriteStatus write) {
    trace(Note.EffectKind.STATUS, write.status().resource().toString(), "");
    ObjectNode body = Json.MAPPER.valueToTree(write.status().applyConfiguration());
    roundTrip(
        name + " writes the status of " + write.status().resource(),
        () -> send(() -> api.applyStatus(identity, body, Effect.WriteStatus.FIELD_MANAGER, true)),
        answer -> new Input.StatusAnswered(write, answer));
  }

  @Override
  public void record(Effect.RecordEvent event) {
    trace(Note.EffectKind.EVENT, event.resource().toString(), event.reason());
    ObjectNode involved = Json.object();
    involved.put("apiVersion", "kuik.enix.io/v1alpha1");
    involved.put("kind", event.resource().kind().kind());
    ObjectNode meta = involved.putObject("metadata");
    meta.put("name", event.resource().name());
    if (event.uid() != null) {
      meta.put("uid", event.uid());
    }
    try {
      events.record(
          identity,
          "kuik-secret-syncer",
          involved,
          event.type() == Effect.RecordEvent.Type.Warning
              ? io.kuik.sim.world.EventRecorder.Type.WARNING
              : io.kuik.sim.world.EventRecorder.Type.NORMAL,
          event.reason(),
          event.message());
    } catch (ApiException dropped) {
      // As the production recorder: an Event that cannot be recorded is dropped, never retried.
    }
  }

  @Override
  public void wakeAt(Effect.WakeAt wake) {
    Instant now = api.loop().now();
    Instant at = wake.timer().at();
    trace(Note.EffectKind.WAKE, "", "at " + at);
    api.loop()
        .scheduleAt(
            at.isBefore(now) ? now : at,
            name + " wakes",
            () -> handle(new Input.TimerFired(wake.timer())));
  }

  /**
   * The write reaches the API server half a round trip later, and its answer the core after the
   * other half, on the virtual clock. A process halted meanwhile sends nothing, or hears nothing.
   */
  private void roundTrip(String what, Supplier<Answer> send, Function<Answer, Input> answered) {
    Duration half = roundTrip.dividedBy(2);
    Duration back = roundTrip.minus(half);
    api.loop()
        .schedule(
            half,
            what,
            () -> {
              if (!alive) {
                return;
              }
              Answer answer = send.get();
              api.loop().schedule(back, what + " answered", () -> handle(answered.apply(answer)));
            });
  }

  private static Answer send(Runnable request) {
    try {
      request.run();
      return Answer.APPLIED;
    } catch (ApiException refused) {
      return new Answer.Refused(refused.code(), refused.reason(), refused.getMessage());
    }
  }

  private void trace(Note.EffectKind kind, String subject, String detail) {
    api.trace()
        .add(
            new Note.SyncerEffect(
                api.loop().now(), api.trace().actorOf(identity), kind, subject, detail));
  }
}
