package io.kuik.kube.syncer;

import static io.kuik.kube.ClusterFixtures.INSTALL_NAMESPACE;
import static io.kuik.kube.ClusterFixtures.REPOSITORY;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kuik.kube.ClusterFixtures;
import io.kuik.kube.MockCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Pull secret first from the runnable command, against fabric8's mock API server held to the
 * chart's RBAC with pullSecretFirst.enabled: {@code kuik syncer --release-gates=true} removes the
 * gate kuik.enix.io/pull-secret of a rewritten pod once it applied the pod's Secret, and keeps the
 * pod's other gate (docs/decisions/0052-pull-secret-first.md).
 */
class PullSecretFirstOnMockApiServerTest {

  private static final Duration PATIENCE = Duration.ofSeconds(20);

  private final MockCluster cluster = MockCluster.underSyncerRbacWithPullSecretFirst();
  private final KubernetesClient client = cluster.client();
  private final ClusterFixtures fixtures = new ClusterFixtures(client);
  private RunningSyncer syncer;

  @AfterEach
  void stop() {
    try {
      if (syncer != null) {
        syncer.close();
      }
      assertEquals(
          List.of(),
          cluster.serviceAccountRequests().stream().filter(r -> r.code() >= 400).toList(),
          "requests of the syncer refused");
    } finally {
      cluster.close();
    }
  }

  @Test
  void theSyncerRemovesItsGateOnlyAfterTheSecretsApplyAndKeepsTheOtherGate() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.sourceSecret("alice");
    fixtures.imageAlternative("OnFailure", "{}");
    fixtures.gatedRewrittenPod("team-a", "web-1", Instant.now());

    syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
            "--leader-elect=false",
            "--debounce=50ms",
            "--log-format=text",
            "--release-gates=true");

    await("the gate of web-1 removed")
        .atMost(PATIENCE)
        .until(() -> fixtures.gates("team-a", "web-1").equals(List.of("example.com/quota")));
    assertEquals(Map.of(REPOSITORY, "alice"), fixtures.injectedUsers("team-a"));
    List<String> writes =
        cluster.serviceAccountRequests().stream()
            .filter(r -> r.attributes().verb().equals("patch"))
            .map(r -> r.attributes().resource() + " " + r.attributes().namespace())
            .toList();
    int secret = writes.indexOf("secrets team-a");
    int gate = writes.indexOf("pods team-a");
    assertTrue(secret >= 0 && gate > secret, "the Secret's apply, then the gate: " + writes);
    await("the wait measured")
        .atMost(PATIENCE)
        .until(
            () -> syncer.get("/metrics").body().contains("kuik_syncer_gate_wait_seconds_count 1"));
  }

  @Test
  void withoutTheFlagTheGateStays() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.sourceSecret("alice");
    fixtures.imageAlternative("OnFailure", "{}");
    fixtures.gatedRewrittenPod("team-a", "web-1", Instant.now());

    syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
            "--leader-elect=false",
            "--debounce=50ms",
            "--log-format=text");

    await("team-a's Secret")
        .atMost(PATIENCE)
        .until(() -> Map.of(REPOSITORY, "alice").equals(fixtures.injectedUsers("team-a")));
    await()
        .during(Duration.ofMillis(500))
        .atMost(PATIENCE)
        .until(
            () ->
                fixtures
                    .gates("team-a", "web-1")
                    .equals(List.of("example.com/quota", "kuik.enix.io/pull-secret")));
  }
}
