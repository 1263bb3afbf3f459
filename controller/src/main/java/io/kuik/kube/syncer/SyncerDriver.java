package io.kuik.kube.syncer;

import io.kuik.kube.LogRedaction;
import io.kuik.ports.Clock;
import io.kuik.registry.CredentialTrier;
import io.kuik.syncer.Answer;
import io.kuik.syncer.Effect;
import io.kuik.syncer.Input;
import io.kuik.syncer.SecretSyncer;
import io.kuik.syncer.SyncerSettings;
import io.kuik.syncer.WriteGate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * The production executor of the core's effects (docs/architecture.md#executors): it owns the
 * {@link SecretSyncer} on the {@link CoreLoop}, where every input is handled, and carries each
 * effect out without blocking that thread. Informer notifications reach the loop and go through the
 * {@link Intake}; applies go out on the sender threads (as many as the core lets fly, {@code
 * --max-applies-in-flight}), gate releases on as many threads of their own, statuses and Events on
 * a thread of their own, credential trials on the {@link CredentialTrier}'s, and every answer comes
 * back as an input on the loop; a wake-up is a one-shot timer on the loop. Every write goes out
 * through the {@link WriteGate}, checked on the thread that sends it. The production twin of the
 * simulator's {@code SyncerProcess}.
 *
 * <p>Before {@link #startSyncing()} (informers synced and, with leader election, the lease held)
 * notifications only fill the caches; the core is built then and reconciles everything once.
 */
final class SyncerDriver implements Effect.Executor {

  private static final Logger LOG = Logger.getLogger(SyncerDriver.class.getName());

  private final CoreLoop loop;
  private final SyncerSettings settings;
  private final Clock clock;
  private final InformerStores stores;
  private final Intake intake;
  private final ApplyingSecretWriter secrets;
  private final ApplyingStatusWriter statuses;
  private final WriteGate gate;
  private final Executor senders;
  private final Executor releasers;
  private final Executor notes;
  private final SyncerMetrics metrics;
  private final CredentialTrier trier;
  private final ProviderPlugins plugins;
  private SecretSyncer core; // the loop's thread only

  /**
   * @param senders the threads that send applies (fabric8's apply blocks for its round trip)
   * @param releasers the threads that send gate releases, as many as the core lets fly
   * @param notes the thread that sends status writes and records Events
   * @param secrets counts the answers of the Secrets' applies
   * @param statuses counts the answers of the status writes
   * @param gate every write's way out
   * @param trier tries credentials on their registries, on threads of its own
   * @param plugins runs credential provider plugins, on threads of its own
   */
  SyncerDriver(
      CoreLoop loop,
      SyncerSettings settings,
      Clock clock,
      InformerStores stores,
      ApplyingSecretWriter secrets,
      ApplyingStatusWriter statuses,
      WriteGate gate,
      Executor senders,
      Executor releasers,
      Executor notes,
      SyncerMetrics metrics,
      CredentialTrier trier,
      ProviderPlugins plugins) {
    this.loop = loop;
    this.settings = settings;
    this.clock = clock;
    this.stores = stores;
    this.intake = new Intake(stores);
    this.secrets = secrets;
    this.statuses = statuses;
    this.gate = gate;
    this.senders = senders;
    this.releasers = releasers;
    this.notes = notes;
    this.metrics = metrics;
    this.trier = trier;
    this.plugins = plugins;
  }

  /** Builds the core and reconciles every pair once; later calls do nothing. Any thread. */
  void startSyncing() {
    loop.execute(
        "start",
        () -> {
          if (core != null) {
            return;
          }
          core = new SecretSyncer(settings, stores, metrics.observer());
          LOG.info(
              "syncing "
                  + stores.routingCount()
                  + " routing resources across "
                  + stores.namespaceCount()
                  + " namespaces");
          handle(intake.started(clock.now()));
        });
  }

  /**
   * The admission policy that bounds the writes, or its binding, went away ({@code false}) or came
   * back: an input of the core, which holds its writes meanwhile (the write gate stops what was
   * already on its way). Any thread.
   */
  void writeBounds(boolean inPlace) {
    loop.execute("write bounds", () -> handle(new Input.WriteBoundsChanged(inPlace)));
  }

  /** An informer's notification, from its thread: handed to the loop, through the intake. */
  void notified(Notification notification) {
    loop.execute(
        notification.getClass().getSimpleName(),
        () -> intake.input(notification, clock.now()).ifPresent(this::handle));
  }

  private void handle(Input input) {
    if (core == null) {
      return; // not started: the intake lets nothing through yet
    }
    long started = System.nanoTime();
    List<Effect> effects = core.handle(input, clock.now());
    effects.forEach(effect -> effect.carryOut(this));
    if (input instanceof Input.TimerFired) {
      metrics.reconciled(Duration.ofNanos(System.nanoTime() - started));
    }
    publish();
  }

  // ---- the effects, on the loop ---------------------------------------------------------------

  @Override
  public void apply(Effect.ApplySecret apply) {
    send(
        senders,
        "apply of " + apply.pair(),
        () -> secrets.counted(gate.apply(apply)),
        answer -> new Input.ApplyAnswered(apply, answer));
  }

  @Override
  public void write(Effect.WriteStatus write) {
    send(
        notes,
        "status of " + write.status().resource(),
        () -> statuses.counted(write.status(), gate.write(write)),
        answer -> new Input.StatusAnswered(write, answer));
  }

  @Override
  public void record(Effect.RecordEvent event) {
    try {
      notes.execute(() -> gate.record(event));
    } catch (RejectedExecutionException stopping) {
      LOG.fine(() -> "Event dropped after shutdown: " + event.reason());
    }
  }

  /**
   * On a releaser thread, through the write gate: several at once, none waiting behind a status or
   * an Event (the core paces them with the other writes).
   */
  @Override
  public void release(Effect.ReleaseGate release) {
    send(
        releasers,
        "release of the gate of " + release.namespace() + "/" + release.name(),
        () -> gate.release(release),
        answer -> new Input.GateAnswered(release, answer));
  }

  /** A timer that fires a little early is handed over all the same: the core asks again. */
  @Override
  public void wakeAt(Effect.WakeAt wake) {
    loop.schedule(
        "wake-up",
        Duration.between(clock.now(), wake.timer().at()),
        () -> handle(new Input.TimerFired(wake.timer())));
  }

  /**
   * On the trier's threads, whatever the registry takes to answer; the verdict comes back to the
   * loop. Neither the trial nor its verdict is logged with the credential (it has none to show).
   */
  @Override
  public void tryCredential(Effect.TryCredential trial) {
    trier.tryOnATrialThread(
        () -> gate.tryCredential(trial),
        verdict ->
            loop.execute(
                "credential trial on " + trial.trial().registry() + " answered",
                () -> handle(new Input.TrialAnswered(trial, verdict))));
  }

  /**
   * On the plugins' threads, whatever the plugin takes; the result comes back to the loop. Neither
   * the mint nor its result is logged with the credential.
   */
  @Override
  public void mint(Effect.MintCredential mint) {
    plugins.mint(
        mint.provider(),
        mint.image(),
        result ->
            loop.execute(
                "mint of " + mint.provider().name() + " for " + mint.image() + " answered",
                () -> handle(new Input.MintAnswered(mint, result))));
  }

  /** On the notes' thread, through the write gate, as an apply. */
  @Override
  public void store(Effect.StoreProviderCredential store) {
    send(
        notes,
        "store of " + store.secret().getMetadata().getName(),
        () -> gate.store(store),
        answer -> new Input.StoreAnswered(store, answer));
  }

  /** Sends on {@code threads}; the answer comes back to the loop, whatever happens. */
  private void send(
      Executor threads, String what, Supplier<Answer> write, Function<Answer, Input> answered) {
    try {
      threads.execute(
          () -> {
            Answer answer;
            try {
              answer = write.get();
            } catch (RuntimeException broken) {
              // An answer must come, or the write would stay in flight for good.
              answer = new Answer.Refused(0, "ClientError", broken.toString());
            }
            Input input = answered.apply(answer);
            loop.execute(what + " answered", () -> handle(input));
          });
    } catch (RejectedExecutionException stopping) {
      LOG.fine(() -> what + " dropped after shutdown");
    }
  }

  private void publish() {
    long pairs = (long) stores.routingCount() * stores.namespaceCount();
    metrics.publish(
        SyncerMetrics.CoreSnapshot.of(
            core.counters(),
            core.queueDepth(),
            core.appliesInFlight(),
            pairs,
            core.resyncPeriod()));
    metrics.podsGated(core.podsGated());
    metrics.providerCredentials(core.providerCredentials(clock.now()));
    metrics.publishLanes(core.queueStats(clock.now()));
    LogRedaction.use(core.redactor());
  }
}
