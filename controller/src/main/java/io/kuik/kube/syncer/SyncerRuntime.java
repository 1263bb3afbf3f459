package io.kuik.kube.syncer;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kuik.kube.ExitReason;
import io.kuik.kube.HealthServer;
import io.kuik.kube.PodGates;
import io.kuik.kube.PolicyWatch;
import io.kuik.kube.ProcessRuntime;
import io.kuik.ports.Clock;
import io.kuik.registry.CredentialTrier;
import io.kuik.syncer.WriteGate;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The production secret-syncer process: informers, the core on its own thread, the writers of its
 * effects behind the write gate (the core paces them), leader election, and the health port. {@link
 * #start} returns once it all runs; {@link #awaitExit()} blocks until something ends the process;
 * {@link #close()} takes it down, writes first.
 *
 * <p>Every replica runs its informers, so a standby is warm and ready; only the leader builds the
 * core and writes, from the moment it holds the lease, its informers have synced and the admission
 * policy that bounds its writes is in place with its binding ({@link PolicyWatch}).
 */
public final class SyncerRuntime implements ProcessRuntime {

  private static final Logger LOG = Logger.getLogger(SyncerRuntime.class.getName());

  private final SyncerRuntimeSettings settings;
  private final String identity = identity();
  private final WriteGate gate;
  private final CompletableFuture<ExitReason> exit = new CompletableFuture<>();
  private final String apiServer;
  private final SyncerMetrics metrics = new SyncerMetrics();
  private final CoreLoop loop = new CoreLoop("kuik-syncer-core");
  // The applies in flight, one thread each: fabric8's server-side apply blocks for its round trip.
  private final ExecutorService senders;
  // The gates' releases, as many at once as applies: a pod patch blocks for its round trip.
  private final ExecutorService releasers;
  // Status writes and Events, one at a time, so that neither waits behind the other's applies.
  private final ExecutorService notes;
  // Credential trials, on threads of their own: a registry may take its timeout to answer.
  private final CredentialTrier trier;
  // Provider plugins, on threads of their own: a plugin may take its timeout to answer.
  private final ProviderPlugins plugins;
  private final SyncerDriver driver;
  private final StartGate start;
  private final SyncerInformers informers;
  private final LeaseElection election;
  private final PolicyWatch bounds;
  private HealthServer health;
  private volatile boolean synced;
  private boolean closed;

  private SyncerRuntime(SyncerRuntimeSettings settings, KubernetesClient client) {
    this.settings = settings;
    this.apiServer = String.valueOf(client.getMasterUrl());
    String namespace = settings.syncer().clusterResourceNamespace();
    Clock clock = java.time.Clock.systemUTC()::instant;
    senders = threads("kuik-syncer-apply-", settings.syncer().maxInFlight());
    releasers = threads("kuik-syncer-release-", settings.syncer().maxInFlight());
    notes = threads("kuik-syncer-notes-", 1);
    trier =
        new CredentialTrier(settings.trials().timeout(), settings.trials().insecureRegistries());
    plugins =
        new ProviderPlugins(
            settings.plugins().directory(),
            settings.plugins().timeout(),
            settings.plugins().concurrency(),
            settings.plugins().maxOutput());
    metrics.providers(settings.syncer().providers().providers().keySet());
    InformerStores stores = new InformerStores(namespace);
    informers = new SyncerInformers(client, stores, namespace);
    ApplyingSecretWriter secrets = new ApplyingSecretWriter(client, metrics);
    ApplyingStatusWriter statuses = new ApplyingStatusWriter(client, metrics, clock);
    // Closed until this process leads and the policies that bound its writes are in place.
    gate =
        new WriteGate(
            new FabricWire(
                secrets,
                statuses,
                new ApiEventRecorder(client, clock, identity),
                new PodGates(client),
                trier));
    driver =
        new SyncerDriver(
            loop,
            settings.syncer(),
            clock,
            stores,
            secrets,
            statuses,
            gate,
            senders,
            releasers,
            notes,
            metrics,
            trier,
            plugins);
    start = new StartGate(driver::startSyncing);
    metrics.informersSynced(() -> synced && informers.noneStopped());
    bounds =
        new PolicyWatch(
            client, settings.bounds().policies(), "the syncer writes", this::boundsChanged);
    election =
        settings.lease().enabled()
            ? new LeaseElection(
                client, namespace, settings.lease(), identity, this::leading, this::deposed)
            : null;
  }

  /**
   * Starts the process; it runs until {@link #requestExit} or a lost lease, then {@link #close}.
   */
  public static SyncerRuntime start(SyncerRuntimeSettings settings, KubernetesClient client)
      throws IOException {
    SyncerRuntime runtime = new SyncerRuntime(settings, client);
    try {
      runtime.health =
          HealthServer.start(
              settings.healthPort(),
              runtime.metrics.registry(),
              () -> runtime.loop.isRunning() && runtime.informers.noneStopped(),
              () ->
                  runtime.synced
                      && runtime.informers.noneStopped()
                      && runtime.bounds.bounds().inPlace(),
              runtime::whyNotReady);
    } catch (IOException e) {
      runtime.close();
      throw new IOException(
          "cannot serve /healthz, /readyz and /metrics on port " + settings.healthPort(), e);
    }
    runtime.startInformers();
    runtime.bounds.start();
    if (runtime.election != null) {
      runtime.election.start();
    } else {
      runtime.leading();
    }
    return runtime;
  }

  /** Blocks until the process should end, and says why. */
  public ExitReason awaitExit() throws InterruptedException {
    try {
      return exit.get();
    } catch (ExecutionException impossible) {
      throw new IllegalStateException(impossible);
    }
  }

  /** Asks the process to end; the first reason wins. Any thread, never blocks. */
  public void requestExit(ExitReason reason) {
    exit.complete(reason);
  }

  /** The registry of {@code /metrics}, for metrics the command adds (the API client's). */
  public io.prometheus.metrics.model.registry.PrometheusRegistry metricsRegistry() {
    return metrics.registry();
  }

  /** The port the health server listens on (useful when the settings asked for port 0). */
  public int healthPort() {
    return health.port();
  }

  /** Whether this process holds the lease (always, without leader election) and writes. */
  public boolean isWriting() {
    return gate.isOpen();
  }

  /**
   * Stops writing first (the gate, then the core's thread), then gives the lease back, then stops
   * the informers and the health port. Idempotent; blocks until done.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    requestExit(ExitReason.SHUTDOWN);
    gate.stopping();
    senders.shutdownNow(); // an apply not sent yet is dropped; one on the wire ends
    releasers.shutdownNow();
    notes.shutdownNow();
    trier.close();
    plugins.close();
    loop.close();
    bounds.close();
    if (election != null) {
      election.close();
    }
    informers.close();
    if (health != null) {
      health.close();
    }
    metrics.leading(false);
    LOG.info("stopped");
  }

  private void startInformers() {
    String namespace = settings.syncer().clusterResourceNamespace();
    informers
        .start(driver::notified)
        .whenComplete(
            (ok, failure) -> {
              if (exit.isDone()) {
                return; // stopping before the informers listed: nothing to report
              }
              if (failure != null) {
                LOG.log(
                    Level.SEVERE,
                    "the informers could not list from the API server "
                        + apiServer
                        + ": check the CRDs are installed, the API server is reachable and the ServiceAccount may list and watch pods,"
                        + " namespaces, imagealternatives, imagemirrors and the Secrets of "
                        + namespace,
                    failure);
                requestExit(ExitReason.STARTUP_FAILED);
              } else {
                LOG.info("informers synced");
                synced = true;
                start.synced();
              }
            });
  }

  /** The admission policies came or went: the gate, the core, the gauge. */
  private void boundsChanged(io.kuik.model.WriteBounds now) {
    gate.bounds(now);
    metrics.admissionPolicyInPlace(now.inPlace());
    driver.writeBounds(now.inPlace());
    if (now.inPlace()) {
      start.bounded();
    }
  }

  private String whyNotReady() {
    if (!synced || !informers.noneStopped()) {
      return "informers not synced or stopped";
    }
    return "writes held: " + bounds.bounds().why();
  }

  private void leading() {
    gate.leading(true);
    metrics.leading(true);
    start.leading();
  }

  /** Lost the lease: no write may leave this process from now on, and the process ends. */
  private void deposed() {
    gate.leading(false);
    metrics.leading(false);
    requestExit(ExitReason.LOST_LEASE);
  }

  private static ExecutorService threads(String prefix, int threads) {
    AtomicInteger count = new AtomicInteger();
    return Executors.newFixedThreadPool(
        threads,
        task -> {
          Thread thread = new Thread(task, prefix + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
  }

  /** The pod's name (HOSTNAME) and a random suffix, so two processes never share an identity. */
  private static String identity() {
    String host = System.getenv("HOSTNAME");
    if (host == null || host.isBlank()) {
      try {
        host = InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        host = "kuik-secret-syncer";
      }
    }
    return host + "_" + UUID.randomUUID().toString().substring(0, 8);
  }
}
