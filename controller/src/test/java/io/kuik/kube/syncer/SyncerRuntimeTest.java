package io.kuik.kube.syncer;

import static io.kuik.kube.ClusterFixtures.INSTALL_NAMESPACE;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.kuik.kube.ClusterFixtures;
import io.kuik.kube.ExitReason;
import io.kuik.kube.Exits;
import io.kuik.kube.Metrics;
import io.kuik.kube.MockCluster;
import io.kuik.syncer.SyncerSettings;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The syncer's process on its own, without the command that would close it at once: a deposed
 * leader stops writing by itself, before anyone closes it, and a closed one writes nothing and says
 * why it ended.
 */
class SyncerRuntimeTest {

  private static final Duration PATIENCE = Duration.ofSeconds(20);
  private static final LeaseSettings FAST =
      new LeaseSettings(
          true,
          LeaseSettings.DEFAULT_NAME,
          Duration.ofSeconds(2),
          Duration.ofSeconds(1),
          Duration.ofMillis(200));

  private final MockCluster cluster = new MockCluster();
  private SyncerRuntime runtime;

  @AfterEach
  void stop() {
    if (runtime != null) {
      runtime.close();
    }
    cluster.close();
  }

  private SyncerRuntime started(LeaseSettings lease) throws IOException {
    ClusterFixtures fixtures = new ClusterFixtures(cluster.client());
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    runtime =
        SyncerRuntime.start(
            new SyncerRuntimeSettings(
                SyncerSettings.defaults(INSTALL_NAMESPACE),
                lease,
                0,
                SyncerRuntimeSettings.Bounds.defaults()),
            cluster.client());
    await("writing").atMost(PATIENCE).until(runtime::isWriting);
    assertEquals(1, leader());
    return runtime;
  }

  private double leader() {
    return Metrics.value(Metrics.text(runtime.metricsRegistry()), "kuik_syncer_leader");
  }

  @Test
  void aDeposedLeaderStopsWritingByItselfAndAsksToEnd() throws Exception {
    started(FAST);
    CompletableFuture<ExitReason> exit = Exits.of(runtime);

    // It stands as its host's name and a random suffix: two replicas never share an identity.
    String holder = lease().getSpec().getHolderIdentity();
    assertTrue(holder.matches(".+_[0-9a-f]{8}"), holder);

    cluster.takeLeaseOver(INSTALL_NAMESPACE, FAST.name(), "another-replica");

    assertEquals(ExitReason.LOST_LEASE, exit.get(PATIENCE.toSeconds(), TimeUnit.SECONDS));
    // Nobody closed it yet: the writes stopped at the loss itself.
    assertFalse(runtime.isWriting());
    assertEquals(0, leader());
  }

  /**
   * A leader that stops gives its Lease back: fabric8 renews it one last time for one second (as
   * client-go releases it), so a standby takes over at its next retry, not the lease duration
   * later.
   */
  @Test
  void aClosedLeaderGivesItsLeaseBack() throws Exception {
    started(LeaseSettings.defaults(true));
    assertEquals(15, lease().getSpec().getLeaseDurationSeconds());

    runtime.close();

    await("released")
        .atMost(Duration.ofSeconds(5))
        .until(() -> lease().getSpec().getLeaseDurationSeconds() == 1);
  }

  private Lease lease() {
    return cluster.client().leases().inNamespace(INSTALL_NAMESPACE).withName(FAST.name()).get();
  }

  @Test
  void closedItWritesNothingAndEndsAsStopped() throws Exception {
    started(LeaseSettings.defaults(false));

    try (io.kuik.LogLines policy = io.kuik.LogLines.of(io.kuik.kube.PolicyWatch.class)) {
      runtime.close();
      // Its policy watch ended with it, though the client it was given still runs.
      cluster.deleteAdmissionPolicyBinding();
      Thread.sleep(2_000);
      assertEquals(java.util.List.of(), policy.all(), "watched after the close");
    }

    assertFalse(runtime.isWriting());
    assertEquals(0, leader());
    assertEquals(ExitReason.SHUTDOWN, Exits.of(runtime).get(5, TimeUnit.SECONDS));
  }
}
