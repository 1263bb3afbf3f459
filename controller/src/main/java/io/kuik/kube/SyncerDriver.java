package io.kuik.kube;

import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.model.ResourceId;
import io.kuik.model.RewrittenPod;
import io.kuik.model.Validated;
import io.kuik.ports.Clock;
import io.kuik.ports.EventRecorder;
import io.kuik.ports.Scheduler;
import io.kuik.ports.SecretWriter;
import io.kuik.ports.StatusWriter;
import io.kuik.syncer.SecretSyncer;
import io.kuik.syncer.SyncerSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * Owns the {@link SecretSyncer} on the {@link CoreLoop}: every informer event becomes a task on the
 * loop that updates the routing cache and calls the core's handler, and the core's wake-ups become
 * timers on the same loop. The core's applies go out on the sender threads, as many at once as the
 * core lets fly ({@code --max-applies-in-flight}), and each answer comes back as a task on the
 * loop. The production twin of the simulator's {@code SyncerProcess}.
 *
 * <p>Before {@link #startSyncing()} (informers synced and, with leader election, the lease held)
 * events only fill the routing cache; the core is built then and reconciles everything once.
 */
final class SyncerDriver implements ClusterEvents, Scheduler, SecretWriter {

  private static final Logger LOG = Logger.getLogger(SyncerDriver.class.getName());

  private final CoreLoop loop;
  private final SyncerSettings settings;
  private final Duration resyncPeriod;
  private final Clock clock;
  private final RoutingCache routing;
  private final InformerStores view;
  private final ApplyingSecretWriter writer;
  private final Executor senders;
  private final StatusWriter statusWriter;
  private final EventRecorder events;
  private final SyncerMetrics metrics;
  private SecretSyncer syncer; // the loop's thread only
  private boolean held; // the loop's thread only: the policy went away, wake-ups wait
  private final SeenAtStart seenAtStart = new SeenAtStart(); // the loop's thread only

  /** How long the start's late notifications are looked for: they come within seconds. */
  private static final Duration SEEN_AT_START_KEPT = Duration.ofMinutes(1);

  SyncerDriver(
      CoreLoop loop,
      SyncerSettings settings,
      Duration resyncPeriod,
      Clock clock,
      RoutingCache routing,
      InformerStores view,
      ApplyingSecretWriter writer,
      Executor senders,
      StatusWriter statusWriter,
      EventRecorder events,
      SyncerMetrics metrics) {
    this.statusWriter = statusWriter;
    this.loop = loop;
    this.settings = settings;
    this.resyncPeriod = resyncPeriod;
    this.clock = clock;
    this.routing = routing;
    this.view = view;
    this.writer = writer;
    this.senders = senders;
    this.events = events;
    this.metrics = metrics;
  }

  /** Builds the core and reconciles every pair once; later calls do nothing. Any thread. */
  void startSyncing() {
    loop.execute(
        "start",
        () -> {
          if (syncer != null) {
            return;
          }
          syncer =
              new SecretSyncer(
                  settings, clock, this, view, this, events, metrics.observer(), statusWriter);
          LOG.info(
              "syncing "
                  + routing.size()
                  + " routing resources across "
                  + view.namespaceCount()
                  + " namespaces");
          view.namespaces()
              .forEach(
                  ns -> {
                    seenAtStart.saw(ns);
                    view.pods(ns.name()).forEach(seenAtStart::saw);
                  });
          loop.schedule("forget what the start saw", SEEN_AT_START_KEPT, seenAtStart::clear);
          syncer.start();
          if (!resyncPeriod.isZero()) {
            loop.scheduleEvery("resync", resyncPeriod, () -> onCore(SecretSyncer::onResync));
          }
          publish();
        });
  }

  /**
   * The admission policy that bounds the writes, or its binding, went away ({@code false}) or came
   * back. While it is away, the core still hears every event and queues its work, but is not woken:
   * nothing is decided into a write (the write fence stops what was already on its way). When it is
   * back, every pair is owed a forced apply, as at a resync: someone may have written under the
   * reserved names while nothing refused it. Any thread.
   */
  void writeBounds(boolean inPlace) {
    loop.execute(
        "write bounds",
        () -> {
          if (!inPlace) {
            held = true;
          } else if (held) {
            held = false;
            onCore(
                core -> {
                  core.onResync();
                  core.onWakeup();
                });
          }
        });
  }

  // ---- informer events: any thread, handed to the loop --------------------------------------

  @Override
  public void routingResourceChanged(Validated resource) {
    loop.execute(
        "routing resource changed",
        () -> {
          if (resource.equals(routing.get(resource.id()).orElse(null))) {
            return; // only its status or metadata changed (the syncer's own status writes)
          }
          routing.put(resource);
          onCore(core -> core.onResourceChanged(resource.id()));
        });
  }

  @Override
  public void routingResourceDeleted(ResourceId id) {
    loop.execute(
        "routing resource deleted",
        () -> {
          routing.remove(id);
          onCore(core -> core.onResourceDeleted(id));
        });
  }

  @Override
  public void namespaceChanged(String name) {
    loop.execute(
        "namespace changed",
        () -> {
          if (syncer != null && seenAtStart.alreadySeen(name, view.namespace(name))) {
            return;
          }
          onCore(core -> core.onNamespaceChanged(name));
        });
  }

  @Override
  public void namespaceDeleted(String name) {
    loop.execute("namespace deleted", () -> onCore(core -> core.onNamespaceDeleted(name)));
  }

  @Override
  public void podChanged(RewrittenPod before, RewrittenPod after) {
    loop.execute(
        "pod changed",
        () -> {
          if (syncer != null && before == null && after != null && seenAtStart.alreadySeen(after)) {
            return;
          }
          onCore(core -> core.onPodChanged(before, after));
        });
  }

  @Override
  public void clusterSecretChanged(String name) {
    loop.execute(
        "cluster resource Secret changed", () -> onCore(core -> core.onClusterSecretChanged(name)));
  }

  // ---- the core's scheduler -----------------------------------------------------------------

  /** Called by the core, on the loop. A wake-up that fires a little early just asks again. */
  @Override
  public void wakeAt(Instant at) {
    loop.schedule("wake-up", Duration.between(clock.now(), at), this::wakeUp);
  }

  // ---- the core's writer --------------------------------------------------------------------

  /** Called by the core, on the loop: sends on a sender thread, answers on the loop. */
  @Override
  public void apply(Secret secret, Consumer<Outcome> answered) {
    try {
      senders.execute(
          () -> {
            Outcome outcome;
            try {
              outcome = writer.apply(secret);
            } catch (RuntimeException broken) {
              // An answer must come whatever happens, or the pair would stay in flight for good.
              outcome = new Refused(0, "ClientError", broken.toString());
            }
            Outcome answer = outcome;
            loop.execute("apply answered", () -> onCore(core -> answered.accept(answer)));
          });
    } catch (RejectedExecutionException stopping) {
      LOG.fine(() -> "apply dropped after shutdown: " + secret.getMetadata().getName());
    }
  }

  private void wakeUp() {
    if (held) {
      return; // writeBounds wakes the core when the policy is back
    }
    long started = System.nanoTime();
    onCore(SecretSyncer::onWakeup);
    metrics.reconciled(Duration.ofNanos(System.nanoTime() - started));
  }

  private void onCore(Consumer<SecretSyncer> handler) {
    if (syncer == null) {
      return; // not started: start() will see what the informers hold
    }
    handler.accept(syncer);
    publish();
  }

  private void publish() {
    long pairs = (long) routing.size() * view.namespaceCount();
    metrics.publish(
        SyncerMetrics.CoreSnapshot.of(
            syncer.counters(),
            syncer.queueDepth(),
            syncer.appliesInFlight(),
            pairs,
            syncer.resyncPeriod()));
    metrics.publishLanes(syncer.queueStats());
  }
}
