package io.kuik.kube.syncer;

import static io.kuik.kube.ClusterFixtures.INSTALL_NAMESPACE;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.kube.ClusterFixtures;
import io.kuik.kube.Metrics;
import io.kuik.kube.MockCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two syncer replicas share one Lease: only the leader writes, a standby is ready but silent, and
 * stopping the leader (SIGTERM gives the lease back) hands the writing over within the lease
 * duration. The mock API server holds both replicas to the chart's RBAC, leases included.
 */
class LeaderElectionOnMockApiServerTest {

  private static final Duration LEASE = Duration.ofSeconds(3);
  private static final Duration PATIENCE = Duration.ofSeconds(20);

  private final MockCluster cluster = MockCluster.underSyncerRbac();
  private final ClusterFixtures fixtures = new ClusterFixtures(cluster.client());
  private RunningSyncer first;
  private RunningSyncer second;

  @AfterEach
  void stop() {
    for (RunningSyncer syncer : new RunningSyncer[] {first, second}) {
      if (syncer != null) {
        syncer.close();
      }
    }
    cluster.close();
  }

  private static RunningSyncer replica() {
    return new RunningSyncer(
        "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
        "--leader-elect=true",
        "--lease-duration=" + LEASE.toSeconds() + "s",
        "--lease-renew-deadline=2s",
        "--lease-retry-period=200ms",
        "--debounce=50ms",
        "--log-format=text");
  }

  @Test
  void onlyTheLeaderWritesAndStoppingItHandsOverWithinTheLeaseDuration() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.sourceSecret("alice");
    fixtures.imageAlternative("Always", "{}");

    first = replica();
    await("the first replica leads").atMost(PATIENCE).until(first::isWriting);
    second = replica();
    await("the standby is ready")
        .atMost(PATIENCE)
        .until(() -> second.get("/readyz").statusCode() == 200);
    await("the leader wrote team-a's Secret")
        .atMost(PATIENCE)
        .until(() -> fixtures.injectedUsers("team-a") != null);

    assertFalse(second.isWriting(), "the standby must not write");
    assertEquals(0, appliesSent(second), "the standby sent no apply");
    assertTrue(appliesSent(first) > 0, "the leader sent the applies");

    assertEquals(0, first.stop(), "a stopped leader exits 0");
    await("the standby takes over")
        .atMost(LEASE)
        .pollInterval(Duration.ofMillis(50))
        .until(second::isWriting);

    fixtures.namespace("team-b", Map.of());
    await("the new leader writes team-b's Secret")
        .atMost(PATIENCE)
        .until(
            () ->
                Map.of(ClusterFixtures.REPOSITORY, "alice")
                    .equals(fixtures.injectedUsers("team-b")));
    assertEquals(
        List.of(),
        cluster.serviceAccountRequests().stream().filter(r -> r.code() == 403).toList(),
        "lease and Secret requests that the chart's RBAC refuses");
  }

  /**
   * A leader whose lease another replica took over (a partition, a paused process) stops writing at
   * once and exits 1, so that Kubernetes restarts it as a fresh standby with empty memory.
   */
  @Test
  void aLeaderWhoseLeaseIsTakenOverStopsWritingAndExitsOne() throws Exception {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.sourceSecret("alice");
    fixtures.imageAlternative("Always", "{}");
    first = replica();
    await("the replica leads").atMost(PATIENCE).until(first::isWriting);

    // The leader renews every 200 ms: retry the takeover until it is not a stale write.
    await("another replica takes the lease over")
        .atMost(PATIENCE)
        .ignoreExceptions()
        .until(
            () -> {
              cluster
                  .client()
                  .leases()
                  .inNamespace(INSTALL_NAMESPACE)
                  .withName(leaseName())
                  .edit(
                      lease -> {
                        lease.getSpec().setHolderIdentity("another-replica");
                        lease.getSpec().setLeaseDurationSeconds(3600);
                        lease.getSpec().setRenewTime(java.time.ZonedDateTime.now());
                        return lease;
                      });
              return true;
            });

    await("the deposed leader ends").atMost(PATIENCE).until(() -> !first.isRunning());
    assertFalse(first.isWriting(), "writing stopped");
    assertEquals(1, first.stop(), "a lost lease exits 1");
  }

  /** The one Lease the replicas stand for. */
  private String leaseName() {
    return cluster
        .client()
        .leases()
        .inNamespace(INSTALL_NAMESPACE)
        .list()
        .getItems()
        .get(0)
        .getMetadata()
        .getName();
  }

  private static long appliesSent(RunningSyncer syncer) {
    return (long) Metrics.value(syncer.get("/metrics").body(), "kuik_syncer_applies_sent_total");
  }
}
