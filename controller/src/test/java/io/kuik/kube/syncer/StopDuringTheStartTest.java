package io.kuik.kube.syncer;

import static io.kuik.kube.ClusterFixtures.INSTALL_NAMESPACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.kuik.kube.ClusterFixtures;
import io.kuik.kube.MockCluster;
import io.kuik.kube.ProcessLeftovers;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM at any moment of the syncer's start ends it cleanly, exit code 0, within seconds and
 * having written nothing: while its informers still list, while a standby waits for a lease another
 * replica holds, while it waits for its admission policy. (What a signal before the process runs
 * does is {@code UntilExitTest}'s; real processes, {@code ProcessExitCodesTest}'s.)
 */
class StopDuringTheStartTest {

  private static final Duration PROMPTLY = Duration.ofSeconds(10);

  private MockCluster cluster;

  @AfterEach
  void close() {
    cluster.close();
  }

  private ClusterFixtures aClusterWithWorkToDo(MockCluster mock) {
    cluster = mock;
    ClusterFixtures fixtures = new ClusterFixtures(cluster.client());
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.sourceSecret("alice");
    fixtures.imageAlternative("Always", "{}");
    return fixtures;
  }

  private static void stopsPromptlyWithZero(RunningSyncer syncer) {
    long start = System.nanoTime();
    int exit = syncer.stop();
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertEquals(0, exit, "a clean stop");
    assertTrue(took.compareTo(PROMPTLY) < 0, "stopped in " + took);
  }

  /**
   * The command asked to stop before it ran its process at all, as when SIGTERM comes while it
   * reads its kubeconfig: the process starts, sees the request and ends at once.
   */
  @Test
  void beforeTheCommandRanItsProcess() throws Exception {
    ClusterFixtures fixtures = aClusterWithWorkToDo(new MockCluster());
    picocli.CommandLine commandLine = io.kuik.cli.Main.commandLine();
    io.kuik.cli.SyncerCommand command =
        (io.kuik.cli.SyncerCommand) commandLine.getSubcommands().get("syncer").getCommand();
    command.stop();

    java.util.concurrent.CompletableFuture<Integer> exit =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () ->
                commandLine.execute(
                    "syncer",
                    "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
                    "--leader-elect=false",
                    "--health-port=0"));

    assertEquals(0, exit.get(PROMPTLY.toSeconds(), java.util.concurrent.TimeUnit.SECONDS));
    assertNull(fixtures.injectedUsers("team-a"), "nothing written");
  }

  @Test
  void whileItsInformersStillList() {
    ClusterFixtures fixtures = aClusterWithWorkToDo(new MockCluster());
    cluster.slowListsOf("pods", Duration.ofSeconds(20));
    RunningSyncer syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE, "--leader-elect=false");
    assertEquals(503, syncer.get("/readyz").statusCode(), "still listing");

    stopsPromptlyWithZero(syncer);
    assertNull(fixtures.injectedUsers("team-a"), "nothing written");
  }

  @Test
  void whileAStandbyWaitsForTheLease() {
    ClusterFixtures fixtures = aClusterWithWorkToDo(new MockCluster());
    cluster
        .client()
        .resource(
            new LeaseBuilder()
                .withNewMetadata()
                .withName("kuik-secret-syncer")
                .withNamespace(INSTALL_NAMESPACE)
                .endMetadata()
                .withNewSpec()
                .withHolderIdentity("another-replica")
                .withLeaseDurationSeconds(3600)
                .withAcquireTime(ZonedDateTime.now())
                .withRenewTime(ZonedDateTime.now())
                .endSpec()
                .build())
        .create();
    RunningSyncer syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
            "--lease-duration=15s",
            "--lease-renew-deadline=10s",
            "--lease-retry-period=200ms");
    org.awaitility.Awaitility.await("ready as a standby")
        .atMost(Duration.ofSeconds(30))
        .until(() -> syncer.get("/readyz").statusCode() == 200);

    stopsPromptlyWithZero(syncer);
    assertNull(fixtures.injectedUsers("team-a"), "a standby writes nothing");
  }

  @Test
  void whileItWaitsForItsAdmissionPolicy() {
    ClusterFixtures fixtures = aClusterWithWorkToDo(MockCluster.withoutAdmissionPolicy());
    RunningSyncer syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE, "--leader-elect=false");
    org.awaitility.Awaitility.await("holding its writes")
        .atMost(Duration.ofSeconds(30))
        .until(() -> syncer.get("/readyz").body().startsWith("writes held"));
    assertEquals(
        0,
        io.kuik.kube.Metrics.value(
            syncer.get("/metrics").body(), "kuik_syncer_admission_policy_in_place"));

    stopsPromptlyWithZero(syncer);
    assertNull(fixtures.injectedUsers("team-a"), "nothing written without the policy");
  }

  /**
   * A syncer stopped after it wrote leaves nothing of itself in the JVM: each of its threads ends
   * (the core, the appliers, the releasers, the notes, the credential trials, the health server)
   * and its health port can be bound again.
   */
  @Test
  void aRunningSyncerStopsEveryThreadItStartedAndFreesItsPort() {
    ClusterFixtures fixtures = aClusterWithWorkToDo(new MockCluster());
    Set<Thread> before = ProcessLeftovers.kuikThreads();
    RunningSyncer syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE, "--leader-elect=false");
    org.awaitility.Awaitility.await("the Secret written")
        .atMost(Duration.ofSeconds(30))
        .until(() -> fixtures.injectedUsers("team-a") != null);
    assertTrue(
        ProcessLeftovers.kuikThreads().stream().anyMatch(t -> !before.contains(t)),
        "it runs threads of its own");

    stopsPromptlyWithZero(syncer);

    ProcessLeftovers.awaitNoThreadBut(before);
    ProcessLeftovers.assertFree(syncer.healthPort());
  }
}
