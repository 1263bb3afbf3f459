package io.kuik.kube.syncer;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * This process's candidacy for the syncer's Lease, on fabric8's {@code LeaderElector}. {@code
 * onStartLeading} runs once when the lease is acquired; {@code onStopLeading} runs at most once,
 * when it is lost or released. {@link #close()} gives the lease back, so a standby takes over at
 * its next retry instead of waiting for the lease to expire.
 */
final class LeaseElection implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(LeaseElection.class.getName());

  private final KubernetesClient client;
  private final String namespace;
  private final LeaseSettings settings;
  private final String identity;
  private final Runnable onStartLeading;
  private final Runnable onStopLeading;
  private final AtomicBoolean stopped = new AtomicBoolean();
  private volatile boolean closing;
  private CompletableFuture<?> running;

  LeaseElection(
      KubernetesClient client,
      String namespace,
      LeaseSettings settings,
      String identity,
      Runnable onStartLeading,
      Runnable onStopLeading) {
    this.client = client;
    this.namespace = namespace;
    this.settings = settings;
    this.identity = identity;
    this.onStartLeading = onStartLeading;
    this.onStopLeading = onStopLeading;
  }

  synchronized void start() {
    LOG.info(
        "standing for the lease "
            + namespace
            + "/"
            + settings.name()
            + " as "
            + identity
            + " (duration "
            + settings.duration()
            + ")");
    var config =
        new LeaderElectionConfigBuilder()
            .withName(settings.name())
            .withLock(new LeaseLock(namespace, settings.name(), identity))
            .withLeaseDuration(settings.duration())
            .withRenewDeadline(settings.renewDeadline())
            .withRetryPeriod(settings.retryPeriod())
            .withReleaseOnCancel(true)
            .withLeaderCallbacks(new LeaderCallbacks(this::started, this::stopped, this::observed))
            .build();
    running = client.leaderElector().withConfig(config).build().start();
  }

  /** Stops standing; releases the lease when this process holds it. */
  @Override
  public synchronized void close() {
    closing = true;
    if (running != null) {
      running.cancel(true);
      running = null;
    }
  }

  private void started() {
    LOG.info("acquired the lease " + namespace + "/" + settings.name() + ": writing");
    onStartLeading.run();
  }

  private void stopped() {
    if (stopped.compareAndSet(false, true)) {
      if (closing) {
        LOG.info("gave the lease " + namespace + "/" + settings.name() + " back");
      } else {
        LOG.warning("lost the lease " + namespace + "/" + settings.name() + ": writing stopped");
      }
      onStopLeading.run();
    }
  }

  private void observed(String leader) {
    if (leader != null && !leader.equals(identity)) {
      LOG.info("the lease " + namespace + "/" + settings.name() + " is held by " + leader);
    }
  }
}
