package io.kuik.sim.bench;

import io.kuik.sim.chart.Release;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.hosts.SyncerHost;
import io.kuik.sim.trace.Actor;
import io.kuik.sim.world.api.ClusterState;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.syncer.SecretSyncer;
import io.kuik.syncer.SyncerSettings;
import java.time.Duration;

/** kuik's production syncer core, installed with the chart's RBAC and policy, with its settings. */
final class KuikContender implements Contender {

  static final Duration RESYNC_PERIOD = Duration.ofMinutes(10);

  private final SyncerHost host;
  private final Actor actor;

  KuikContender(KuikWorld world, SyncerSettings settings) {
    Release release = new Release("kuik", Workload.INSTALL_NAMESPACE);
    world.cluster().install(release);
    Identity identity =
        SyncerHost.podIdentity(Workload.INSTALL_NAMESPACE, release.syncerServiceAccount());
    this.host = new SyncerHost(world.cluster().api(), identity, settings);
    this.actor = world.cluster().trace().actorOf(identity);
  }

  @Override
  public Actor actor() {
    return actor;
  }

  @Override
  public void start() {
    host.start();
  }

  @Override
  public void restart() {
    host.crash();
    host.start();
  }

  @Override
  public void stop() {
    host.crash();
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
