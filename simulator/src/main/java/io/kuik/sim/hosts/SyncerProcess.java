package io.kuik.sim.hosts;

import io.kuik.kube.syncer.InformerStores;
import io.kuik.kube.syncer.Intake;
import io.kuik.model.CredentialTrial;
import io.kuik.model.Durations;
import io.kuik.model.PullSecretGate;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.TrialVerdict;
import io.kuik.model.WriteBounds;
import io.kuik.sim.client.Informer;
import io.kuik.sim.trace.Note;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.LabelSelector;
import io.kuik.sim.world.registry.Registries;
import io.kuik.sim.world.registry.Registry;
import io.kuik.syncer.Answer;
import io.kuik.syncer.Effect;
import io.kuik.syncer.Input;
import io.kuik.syncer.SecretSyncer;
import io.kuik.syncer.SyncerSettings;
import io.kuik.syncer.SyncerWire;
import io.kuik.syncer.WriteGate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One incarnation of the syncer process, the simulator's executor of the core's effects: its
 * informers, the production caches ({@link InformerStores}) and {@link Intake} they feed, and the
 * core itself, on the virtual clock. Only the transport is its own ({@link SyncerTransport}): the
 * rule that turns a notification into an input, the records it keeps and the core are production's.
 * Every effect is recorded in the trace as it is taken in hand, and every write goes out through
 * the production {@link WriteGate} (over this process's {@link SyncerWire}), checked when it is
 * sent. Nothing outlives {@link #halt()}: timers and answers that reach a halted incarnation find
 * it dead and do nothing.
 */
final class SyncerProcess implements Effect.Executor {

  private static final Duration SYNC_POLL = Duration.ofMillis(100);

  /**
   * The default round trip of a write: it reaches the API server after half of it and its answer
   * comes back after the other half, so that writes are in flight for a while, as over a network.
   */
  static final Duration ROUND_TRIP = Duration.ofMillis(20);

  /** How long a registry takes to answer a credential's trial, the whole token flow. */
  static final Duration TRIAL_ROUND_TRIP = Duration.ofMillis(200);

  private final ApiServer api;
  private final Identity identity;
  private final SyncerSettings settings;
  private final String name;
  private final InformerStores stores;
  private final Intake intake;
  private final io.kuik.sim.world.EventRecorder events;
  private final List<Informer> informers;
  private SecretSyncer syncer;
  private java.util.function.Consumer<Boolean> readiness = ready -> {};
  private boolean alive = true;
  private Duration roundTrip = ROUND_TRIP;

  /** The policies it watches; none: it writes unbounded (a bare test). */
  private final List<WriteBounds.Policy> policies;

  private final PolicyWatch policyWatch;

  /** The Lease it renews while it releases gates (pull secret first). */
  private final String leaseName;

  private WriteBounds bounds;

  /** The one way out of every write. */
  private final WriteGate gate = new WriteGate(new Wire());

  /** Where credentials are tried; null when this process has no registry to reach. */
  private final Registries registries;

  SyncerProcess(
      ApiServer api,
      Identity identity,
      SyncerSettings settings,
      String name,
      List<WriteBounds.Policy> policies,
      String leaseName,
      Registries registries) {
    this.api = api;
    this.registries = registries;
    this.policies = List.copyOf(policies);
    this.leaseName = leaseName;
    this.bounds =
        this.policies.isEmpty()
            ? new WriteBounds(true, "no admission policy to wait for")
            : WriteBounds.unreadable("the admission policy and its binding have not been read yet");
    gate.leading(true); // one simulated replica: the leader
    gate.bounds(bounds);
    this.policyWatch =
        this.policies.isEmpty()
            ? null
            : new PolicyWatch(api, identity, name, this.policies, this::boundsChanged);
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
    if (settings.releasesGates()) {
      new LeaseRenewal(
              api, identity, settings.clusterResourceNamespace(), leaseName, name, () -> alive)
          .renew();
    }
    if (policyWatch != null) {
      policyWatch.start();
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
   * What the policy watch decided: the gate first (a write on its way is not sent once they are
   * gone), then the core (which holds its writes, or releases them with a resync).
   */
  private void boundsChanged(WriteBounds now) {
    if (!alive) {
      return;
    }
    boolean changed = now.inPlace() != bounds.inPlace();
    bounds = now;
    gate.bounds(now);
    api.trace()
        .add(
            new Note.WriteBounds(
                api.loop().now(), api.trace().actorOf(identity), now.inPlace(), now.why()));
    if (changed) {
      handle(new Input.WriteBoundsChanged(now.inPlace()));
    }
    if (syncer != null) {
      readiness.accept(ready());
    }
  }

  void halt() {
    alive = false;
    gate.stopping();
    informers.forEach(Informer::stop);
    if (policyWatch != null) {
      policyWatch.stop();
    }
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

  /** From now on each write takes this long to be answered (a slow or distant API server). */
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
    syncer = new SecretSyncer(settings, stores);
    handle(intake.started(api.loop().now()));
    readiness.accept(true);
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
    roundTrip(
        name + " applies " + apply.secret().getMetadata().getName(),
        () -> gate.apply(apply),
        answer -> new Input.ApplyAnswered(apply, answer));
  }

  @Override
  public void write(Effect.WriteStatus write) {
    trace(Note.EffectKind.STATUS, write.status().resource().toString(), "");
    roundTrip(
        name + " writes the status of " + write.status().resource(),
        () -> gate.write(write),
        answer -> new Input.StatusAnswered(write, answer));
  }

  @Override
  public void record(Effect.RecordEvent event) {
    if (event.target() instanceof Effect.RecordEvent.OnPod pod) {
      trace(Note.EffectKind.EVENT, "pod " + pod.namespace() + "/" + pod.name(), event.reason());
    } else {
      trace(Note.EffectKind.EVENT, event.resource().toString(), event.reason());
    }
    gate.record(event);
  }

  @Override
  public void release(Effect.ReleaseGate release) {
    String target = "pods " + release.namespace() + "/" + release.name();
    trace(Note.EffectKind.RELEASE, target, "gate " + release.index());
    roundTrip(
        name + " releases the gate of " + release.namespace() + "/" + release.name(),
        () -> gate.release(release),
        answer -> new Input.GateAnswered(release, answer));
  }

  @Override
  public void wakeAt(Effect.WakeAt wake) {
    Instant now = api.loop().now();
    Instant at = wake.timer().at();
    trace(Note.EffectKind.WAKE, "", "in " + Durations.text(Duration.between(now, at)));
    api.loop()
        .scheduleAt(
            at.isBefore(now) ? now : at,
            name + " wakes",
            () -> handle(new Input.TimerFired(wake.timer())));
  }

  /**
   * The plugin runs as the simulated cloud provider of its name answers it ({@link
   * io.kuik.sim.world.registry.CloudProvider}): its answer comes back after the run's latency, read
   * by the production {@link io.kuik.model.ProviderExchange}; a run longer than the production
   * timeout is killed at it. A plugin no provider of the world is named after is not found. Not a
   * write: the core asks for none while it does not lead.
   */
  @Override
  public void mint(Effect.MintCredential mint) {
    trace(Note.EffectKind.MINT, mint.provider().name(), mint.image());
    PluginRuns.Answer answer = PluginRuns.run(registries, mint);
    api.loop()
        .schedule(
            answer.after(),
            name + " hears " + mint.provider().name() + " answer",
            () -> handle(new Input.MintAnswered(mint, answer.result())));
  }

  /** As an apply, through the gate, half a round trip each way. */
  @Override
  public void store(Effect.StoreProviderCredential store) {
    trace(
        Note.EffectKind.STORE,
        "secrets "
            + store.secret().getMetadata().getNamespace()
            + "/"
            + store.secret().getMetadata().getName(),
        "");
    roundTrip(
        name + " keeps " + store.secret().getMetadata().getName(),
        () -> gate.store(store),
        answer -> new Input.StoreAnswered(store, answer));
  }

  /**
   * The simulated registries' login, as the production trier runs the token flow: off the core,
   * answered {@link #TRIAL_ROUND_TRIP} later on the virtual clock (the registry judges at half of
   * it). The trace names the user, never the credential.
   */
  @Override
  public void tryCredential(Effect.TryCredential tried) {
    CredentialTrial trial = tried.trial();
    trace(Note.EffectKind.TRIAL, trial.registry(), String.join(",", trial.paths()));
    Duration half = TRIAL_ROUND_TRIP.dividedBy(2);
    api.loop()
        .schedule(
            half,
            name + " tries a credential on " + trial.registry(),
            () -> {
              if (!alive) {
                return;
              }
              TrialVerdict verdict = gate.tryCredential(tried);
              api.loop()
                  .schedule(
                      TRIAL_ROUND_TRIP.minus(half),
                      name + " hears " + trial.registry() + " answer a trial",
                      () -> handle(new Input.TrialAnswered(tried, verdict)));
            });
  }

  private TrialVerdict login(CredentialTrial trial) {
    if (registries == null) {
      return TrialVerdict.unreachable(trial.registry() + ": no such host");
    }
    Registry.Login login = registries.login(trial.registry(), trial.paths(), trial.credential());
    return switch (login.outcome()) {
      case ACCEPTED -> TrialVerdict.accepted(login.answer());
      case REFUSED -> TrialVerdict.refused(login.answer());
      case UNREACHABLE -> TrialVerdict.unreachable(login.answer());
    };
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

  // ---- the wire: each write as it reaches the simulated API server or registry -----------------

  /** Each write as it reaches the simulated API server or registry; only the gate calls it. */
  private final class Wire implements SyncerWire {
    @Override
    public Answer apply(Effect.ApplySecret apply) {
      ObjectNode body = Json.MAPPER.valueToTree(apply.secret());
      Json.dropNulls(body);
      return send(() -> api.apply(identity, body, Effect.ApplySecret.FIELD_MANAGER, true));
    }

    @Override
    public Answer write(Effect.WriteStatus write) {
      ObjectNode body = Json.MAPPER.valueToTree(write.status().applyConfiguration());
      return send(() -> api.applyStatus(identity, body, Effect.WriteStatus.FIELD_MANAGER, true));
    }

    @Override
    public Answer release(Effect.ReleaseGate release) {
      JsonNode patch =
          Json.MAPPER.valueToTree(PullSecretGate.removal(release.uid(), release.index()));
      return send(
          () ->
              api.jsonPatch(
                  identity,
                  ResourceType.POD,
                  release.namespace(),
                  release.name(),
                  patch,
                  Effect.ApplySecret.FIELD_MANAGER));
    }

    @Override
    public TrialVerdict tryCredential(Effect.TryCredential tried) {
      return login(tried.trial());
    }

    @Override
    public Answer store(Effect.StoreProviderCredential store) {
      ObjectNode body = Json.MAPPER.valueToTree(store.secret());
      Json.dropNulls(body);
      return send(() -> api.apply(identity, body, Effect.ApplySecret.FIELD_MANAGER, true));
    }

    /**
     * The Event, at once; one the API server refuses is dropped, as the production recorder does.
     */
    @Override
    public void record(Effect.RecordEvent event) {
      ObjectNode involved = Json.object();
      ObjectNode meta;
      if (event.target() instanceof Effect.RecordEvent.OnPod pod) {
        involved.put("apiVersion", "v1");
        involved.put("kind", "Pod");
        meta = involved.putObject("metadata");
        meta.put("name", pod.name());
        meta.put("namespace", pod.namespace());
      } else {
        involved.put("apiVersion", "kuik.enix.io/v1alpha1");
        involved.put("kind", event.resource().kind().kind());
        meta = involved.putObject("metadata");
        meta.put("name", event.resource().name());
      }
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
  }

  private Answer send(Runnable request) {
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
