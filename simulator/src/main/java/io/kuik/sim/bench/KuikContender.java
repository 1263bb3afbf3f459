package io.kuik.sim.bench;

import io.kuik.sim.chart.Release;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.hosts.SyncerHost;
import io.kuik.sim.hosts.WebhookHost;
import io.kuik.sim.trace.Actor;
import io.kuik.sim.world.api.ClusterState;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.syncer.SecretSyncer;
import io.kuik.syncer.SyncerSettings;
import io.kuik.webhook.SyncerLease;
import java.time.Duration;
import java.time.Instant;

/** kuik's production syncer core, installed with the chart's RBAC and policy, with its settings. */
final class KuikContender implements Contender {

  static final Duration RESYNC_PERIOD = Duration.ofMinutes(10);

  /** The chart's default {@code pullSecretFirst.maxWait}. */
  static final Duration MAX_WAIT = Duration.ofSeconds(30);

  private final SyncerHost host;
  private final Actor actor;

  /** With pull secret first: the webhook's process, for its bound on the gate; else null. */
  private final WebhookHost webhook;

  KuikContender(KuikWorld world, SyncerSettings settings) {
    Release release =
        settings.releasesGates()
            ? new Release("kuik", Workload.INSTALL_NAMESPACE)
                .withValues("pullSecretFirst.enabled=true")
            : new Release("kuik", Workload.INSTALL_NAMESPACE);
    world.cluster().install(release);
    Identity identity =
        SyncerHost.podIdentity(Workload.INSTALL_NAMESPACE, release.syncerServiceAccount());
    this.host = new SyncerHost(world.cluster().api(), identity, settings);
    this.actor = world.cluster().trace().actorOf(identity);
    if (settings.releasesGates()) {
      webhook =
          new WebhookHost(
                  world.cluster().api(),
                  SyncerHost.podIdentity(
                      Workload.INSTALL_NAMESPACE, release.webhookServiceAccount()),
                  Workload.INSTALL_NAMESPACE,
                  world.cluster().registries(),
                  KuikWorld.WEBHOOK_TIMEOUT)
              .pullSecretFirst(MAX_WAIT);
    } else {
      webhook = null;
    }
  }

  @Override
  public Actor actor() {
    return actor;
  }

  @Override
  public void start() {
    host.start();
    if (webhook != null) {
      webhook.start();
    }
  }

  @Override
  public void restart() {
    host.crash();
    host.start();
  }

  @Override
  public void stop() {
    host.crash();
    if (webhook != null) {
      webhook.stop();
    }
  }

  /** As the webhook decides with pull secret first: while the syncer's Lease is fresh. */
  @Override
  public boolean gates(ClusterState state, Instant now) {
    if (webhook == null) {
      return false;
    }
    return state
        .get(ResourceType.LEASE, Workload.INSTALL_NAMESPACE, "kuik-secret-syncer")
        .map(
            lease -> {
              Instant renewed = Instant.parse(lease.path("spec").path("renewTime").asString());
              long seconds = lease.path("spec").path("leaseDurationSeconds").asLong();
              return new SyncerLease.Observed(renewed, Duration.ofSeconds(seconds)).freshAt(now);
            })
        .orElse(false);
  }

  /** Pods the webhook's bound released. */
  long releasedByTheBound() {
    return webhook == null ? 0 : webhook.releasedByTheBound();
  }

  /** kuik's Secret for the resource holds the resource's current credential. */
  @Override
  public boolean serves(ClusterState state, String namespace, int k, boolean rotated) {
    return state
        .get(ResourceType.SECRET, namespace, Workload.secretName(k))
        .map(secret -> Workload.holds(secret, k, rotated))
        .orElse(false);
  }

  /** Pairs waiting in the running incarnation's queue, 0 before its informers synced. */
  int queueDepth() {
    return host.syncer().map(SecretSyncer::queueDepth).orElse(0);
  }
}
