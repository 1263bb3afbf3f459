package io.kuik.kube.syncer;

import static io.kuik.kube.ClusterFixtures.INSTALL_NAMESPACE;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.kube.ClusterFixtures;
import io.kuik.kube.Metrics;
import io.kuik.kube.MockCluster;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The real {@code kuik syncer} writes only while the chart's admission policy and its binding exist
 * (docs/behaviour.md#writing-only-under-the-policy): started before them, as Helm installs them
 * after the Deployments, it writes nothing and is not ready; once they are there every pair is
 * written; when the binding goes, it stops writing until it is back, and then writes what it held.
 */
class WriteBoundsOnMockApiServerTest {

  private static final Duration PATIENCE = Duration.ofSeconds(20);

  /** The watch's delivery, the syncer's 50 ms debounce, and room for a busy machine. */
  private static final Duration QUIET = Duration.ofSeconds(2);

  private final MockCluster cluster = MockCluster.withoutAdmissionPolicy();
  private final ClusterFixtures fixtures = new ClusterFixtures(cluster.client());
  private RunningSyncer syncer;

  @AfterEach
  void stop() {
    if (syncer != null) {
      syncer.close();
    }
    cluster.close();
  }

  /** One resource for every namespace, one namespace, its source: a syncer started on them. */
  private void startOnOnePair() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.sourceSecret("alice");
    fixtures.imageAlternative("Always", "{}");
    syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
            "--leader-elect=false",
            "--debounce=50ms",
            "--log-format=json");
  }

  private double inPlace() {
    return Metrics.value(syncer.get("/metrics").body(), "kuik_syncer_admission_policy_in_place");
  }

  @Test
  void writesNothingBeforeThePolicyExistsNorAfterItGoesAndLosesNothing() throws Exception {
    startOnOnePair();

    // Started before its policy: synced, and holding every write.
    await("the policy read and found missing")
        .atMost(PATIENCE)
        .until(() -> syncer.get("/readyz").body().contains("does not exist"));
    Thread.sleep(QUIET.toMillis());
    HttpResponse<String> waiting = syncer.get("/readyz");
    assertEquals(503, waiting.statusCode());
    assertTrue(
        waiting
            .body()
            .contains(
                "writes held: the ValidatingAdmissionPolicy kuik-pull-secrets does not exist"),
        waiting.body());
    assertEquals(0.0, inPlace());
    assertEquals(java.util.List.of(), cluster.applies(), "nothing written before the policy");

    // Helm creates the policy and its binding: every pair is written.
    cluster.installAdmissionPolicy();
    await("team-a written").atMost(PATIENCE).until(() -> fixtures.injectedUsers("team-a") != null);
    await("ready").atMost(PATIENCE).until(() -> syncer.get("/readyz").statusCode() == 200);
    assertEquals(1.0, inPlace());

    // The binding goes (an uninstall, a person): the syncer stops writing.
    cluster.deleteAdmissionPolicyBinding();
    await("writes stopped").atMost(PATIENCE).until(() -> inPlace() == 0.0);
    assertEquals(503, syncer.get("/readyz").statusCode());
    int appliesBefore = cluster.applies().size();
    fixtures.namespace("team-b", Map.of());
    Thread.sleep(QUIET.toMillis());
    assertNull(fixtures.injectedUsers("team-b"), "no write while the binding is missing");
    assertEquals(appliesBefore, cluster.applies().size());

    // It comes back: what the syncer held is written.
    cluster.installAdmissionPolicy();
    await("team-b written once the binding is back")
        .atMost(PATIENCE)
        .until(() -> fixtures.injectedUsers("team-b") != null);
    assertEquals(1.0, inPlace());
    assertEquals(200, syncer.get("/readyz").statusCode());
  }

  /**
   * The core knows the writes are held, so an Event it decides meanwhile is kept, not sent to a
   * closed gate and lost: it is recorded once the binding is back.
   */
  @Test
  void anEventDecidedWhileTheWritesAreHeldIsRecordedOnceTheyResume() throws Exception {
    cluster.installAdmissionPolicy();
    startOnOnePair();
    await("team-a written").atMost(PATIENCE).until(() -> fixtures.injectedUsers("team-a") != null);
    assertNull(injectionFailed(), "the source is there");

    cluster.deleteAdmissionPolicyBinding();
    await("writes stopped").atMost(PATIENCE).until(() -> inPlace() == 0.0);
    cluster
        .client()
        .secrets()
        .inNamespace(INSTALL_NAMESPACE)
        .withName(ClusterFixtures.SOURCE_SECRET)
        .delete();
    Thread.sleep(QUIET.toMillis());
    assertNull(injectionFailed(), "no Event while the writes are held");

    cluster.installAdmissionPolicy();
    await("the Event kept, recorded once the binding is back")
        .atMost(PATIENCE)
        .until(() -> injectionFailed() != null);
  }

  private io.fabric8.kubernetes.api.model.Event injectionFailed() {
    return cluster.client().v1().events().inAnyNamespace().list().getItems().stream()
        .filter(e -> "PullSecretInjectionFailed".equals(e.getReason()))
        .findFirst()
        .orElse(null);
  }

  @Test
  void underTheChartsRbacTheSyncerWatchesThePolicyAndItsBindingByNameAndNothingElseOfThem() {
    try (MockCluster underRbac = MockCluster.underSyncerRbac()) {
      ClusterFixtures arranged = new ClusterFixtures(underRbac.client());
      arranged.namespace(INSTALL_NAMESPACE, Map.of());
      arranged.namespace("team-a", Map.of());
      arranged.sourceSecret("alice");
      arranged.imageAlternative("Always", "{}");
      try (RunningSyncer chartSyncer =
          new RunningSyncer(
              "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
              "--leader-elect=false",
              "--debounce=50ms")) {
        await("team-a written")
            .atMost(PATIENCE)
            .until(() -> arranged.injectedUsers("team-a") != null);
        assertTrue(
            underRbac.serviceAccountRequests().stream()
                .anyMatch(
                    r ->
                        r.code() != 403
                            && r.attributes().verb().equals("watch")
                            && r.attributes().name().equals("kuik-pull-secrets")
                            && r.toString().contains("validatingadmissionpolicybindings")),
            "the binding watched under the chart's RBAC: " + underRbac.serviceAccountRequests());
        assertTrue(
            underRbac.serviceAccountRequests().stream()
                .filter(r -> r.toString().contains("validatingadmissionpolic"))
                .allMatch(r -> r.code() != 403 && !r.attributes().name().isEmpty()),
            "only requests by name: " + underRbac.serviceAccountRequests());
      }
    }
  }
}
