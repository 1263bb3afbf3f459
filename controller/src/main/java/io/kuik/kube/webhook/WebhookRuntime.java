package io.kuik.kube.webhook;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kuik.kube.ExitReason;
import io.kuik.kube.HealthServer;
import io.kuik.kube.ProcessRuntime;
import io.kuik.routing.Router;
import io.kuik.webhook.AdmissionHandler;
import io.kuik.webhook.OciRegistryProber;
import io.kuik.webhook.WebhookServer;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The production pod webhook process (docs/behaviour.md#routing-pods): the informers of {@link
 * WebhookInformers} feeding a {@link WebhookRouting} index, the namespace lookup and the prober's
 * credentials; the {@link OciRegistryProber}; the {@link AdmissionHandler}; {@link WebhookServer}
 * on {@code /mutate-pods} over TLS; and the health port with {@code /metrics}. Ready once the
 * informers have synced. It writes nothing to the cluster: the patch goes back in the admission
 * response.
 *
 * <p>{@link #start} returns once it all runs; {@link #awaitExit()} blocks until something ends the
 * process; {@link #close()} drains and takes it down.
 */
public final class WebhookRuntime implements ProcessRuntime {

  private static final Logger LOG = Logger.getLogger(WebhookRuntime.class.getName());

  private final WebhookRuntimeSettings settings;
  private final CompletableFuture<ExitReason> exit = new CompletableFuture<>();
  private final String apiServer;
  private final WebhookMetrics metrics = new WebhookMetrics();
  private final WebhookRouting routing = new WebhookRouting();
  private final WebhookInformers informers;
  private final OciRegistryProber prober;
  private final AdmissionHandler handler;
  private final GateKeeper gateKeeper; // null without pull secret first
  private HealthServer health;
  private WebhookServer server;
  private volatile boolean synced;
  private volatile boolean draining;
  private boolean closed;

  private WebhookRuntime(WebhookRuntimeSettings settings, KubernetesClient client) {
    this.settings = settings;
    this.apiServer = String.valueOf(client.getMasterUrl());
    informers = new WebhookInformers(client, settings.clusterResourceNamespace());
    prober = new OciRegistryProber(settings.prober());
    metrics.prober(prober);
    metrics.routingResources(routing::valid, routing::invalid);
    metrics.informersSynced(() -> synced && informers.noneStopped());
    WebhookRuntimeSettings.PullSecretFirst first = settings.pullSecretFirst();
    gateKeeper =
        first == null
            ? null
            : new GateKeeper(
                client,
                settings.clusterResourceNamespace(),
                first.lease(),
                first.maxWait(),
                first.podGates());
    if (gateKeeper != null) {
      metrics.gates(gateKeeper::gatedPods, gateKeeper::releasedByTheBound);
    }
    handler =
        new AdmissionHandler(
            new Router(
                new WebhookProbeMeter(prober, metrics, System::nanoTime),
                informers.credentials(),
                java.time.Clock.systemUTC()::instant),
            routing,
            settings.served(),
            this::namespaceLabels,
            metrics::decided,
            () -> gateKeeper != null && gateKeeper.gating());
  }

  /**
   * Starts the process; it runs until {@link #requestExit}, then {@link #close}.
   *
   * @throws IOException when a port cannot be listened on
   * @throws GeneralSecurityException naming the files when the certificate or key cannot be served
   */
  public static WebhookRuntime start(WebhookRuntimeSettings settings, KubernetesClient client)
      throws IOException, GeneralSecurityException {
    WebhookRuntime runtime = new WebhookRuntime(settings, client);
    try {
      try {
        runtime.health =
            HealthServer.start(
                settings.healthPort(),
                runtime.metrics.registry(),
                runtime.informers::noneStopped,
                runtime::isReady);
      } catch (IOException e) {
        throw new IOException(
            "cannot serve /healthz, /readyz and /metrics on port " + settings.healthPort(), e);
      }
      runtime.server =
          WebhookServer.start(
              settings.server(), runtime.handler, runtime::isReady, runtime.metrics::served);
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      runtime.close();
      throw e;
    }
    runtime.startInformers();
    if (runtime.gateKeeper != null) {
      runtime.gateKeeper.start();
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

  /** Whether admissions are routed with synced views, and the Service should send them. */
  public boolean isReady() {
    return synced && !draining && informers.noneStopped();
  }

  /** The registry of {@code /metrics}, for metrics the command adds (the API client's). */
  public io.prometheus.metrics.model.registry.PrometheusRegistry metricsRegistry() {
    return metrics.registry();
  }

  /** The port the health server listens on (useful when the settings asked for port 0). */
  public int healthPort() {
    return health.port();
  }

  /** The port of {@code /mutate-pods} (useful when the settings asked for port 0). */
  public int port() {
    return server.address().getPort();
  }

  /**
   * Fails /readyz, keeps answering admissions for the shutdown delay (the Service takes a moment to
   * stop sending, and a refused call would admit a pod unrouted), then stops the HTTPS server, the
   * prober, the informers and the health port. Idempotent; blocks until done.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    requestExit(ExitReason.SHUTDOWN);
    draining = true;
    if (server != null) {
      drain();
      server.close();
    }
    prober.close();
    if (gateKeeper != null) {
      gateKeeper.close();
    }
    informers.close();
    if (health != null) {
      health.close();
    }
    LOG.info("stopped");
  }

  private void drain() {
    if (settings.shutdownDelay().isZero() || !synced) {
      return; // never ready, so the Service never sent it anything
    }
    LOG.log(
        Level.INFO, "not ready any more; answering admissions for {0}", settings.shutdownDelay());
    try {
      Thread.sleep(settings.shutdownDelay().toMillis());
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** The namespace's labels; a namespace the informer does not hold yet is counted, then left. */
  private Optional<Map<String, String>> namespaceLabels(String namespace) {
    Optional<Map<String, String>> labels = informers.namespaceLabels(namespace);
    if (labels.isEmpty()) {
      metrics.admitted(WebhookMetrics.Result.NAMESPACE_UNKNOWN);
    }
    return labels;
  }

  private void startInformers() {
    informers
        .start(routing)
        .whenComplete(
            (ok, failure) -> {
              if (draining) {
                return; // closed before the informers listed: nothing to report
              }
              if (failure != null) {
                LOG.log(
                    Level.SEVERE,
                    "the informers could not list from the API server "
                        + apiServer
                        + ": check the CRDs are installed, the API server is reachable and the ServiceAccount may list and watch"
                        + " imagealternatives, imagemirrors, namespaces and the Secrets of "
                        + settings.clusterResourceNamespace(),
                    failure);
                requestExit(ExitReason.STARTUP_FAILED);
              } else {
                synced = true;
                LOG.info(
                    "informers synced, ready: "
                        + routing.valid()
                        + " routing resources, "
                        + routing.invalid()
                        + " invalid");
              }
            });
  }
}
