package io.kuik.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.kuik.model.PullSecretGate;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/**
 * The removal of kuik's scheduling gate as both processes send it: one JSON Patch that tests the
 * pod's uid and the gate's name before it removes the gate, so that a pod recreated under the same
 * name, or a gate list changed meanwhile, is refused rather than patched wrongly; every answer
 * comes back as a result, never thrown.
 */
@EnableKubernetesMockClient
class PodGatesTest {

  private static final String PATH = "/api/v1/namespaces/team-a/pods/web";
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  KubernetesMockServer server;
  KubernetesClient client;

  @Test
  void theGateIsRemovedByOneJsonPatchThatTestsTheUidAndTheGateFirst() throws Exception {
    server
        .expect()
        .patch()
        .withPath(PATH)
        .andReturn(200, new PodBuilder().withNewMetadata().withName("web").endMetadata().build())
        .once();

    PodGates.Result result = new PodGates(client).release("team-a", "web", "uid-1", 2);

    assertTrue(result.released(), result.toString());
    assertEquals(new PodGates.Result(200, "OK", ""), result);
    assertEquals(1, server.getRequestCount(), "one request: no read before the patch");
    RecordedRequest request = server.takeRequest();
    assertEquals("PATCH", request.getMethod());
    assertTrue(
        request.getHeader("Content-Type").startsWith("application/json-patch+json"),
        request.getHeader("Content-Type"));
    assertEquals(JSON.asJson(PullSecretGate.removal("uid-1", 2)), request.getBody().readUtf8());
  }

  /**
   * Under the chart's RBAC for the webhook with pullSecretFirst.enabled (list, watch and patch on
   * pods, no get): the webhook's bound releases through this very class, so a read before the patch
   * was refused and no pod past the bound was ever released.
   */
  @Test
  void theWebhooksGrantsAreEnoughToRemoveTheGate() {
    try (MockCluster cluster =
        MockCluster.underChartRbac("files/pull-secret-first.yaml", "webhook", "", crud -> crud)) {
      ClusterFixtures fixtures = new ClusterFixtures(cluster.client());
      fixtures.namespace("team-a", java.util.Map.of());
      fixtures.gatedRewrittenPod("team-a", "web", java.time.Instant.now());
      String uid =
          cluster
              .client()
              .pods()
              .inNamespace("team-a")
              .withName("web")
              .get()
              .getMetadata()
              .getUid();
      try (KubernetesClient webhook = new KubernetesClientBuilder().build()) {
        PodGates.Result result = new PodGates(webhook).release("team-a", "web", uid, 1);

        assertTrue(result.released(), result.toString());
        assertEquals(java.util.List.of("example.com/quota"), fixtures.gates("team-a", "web"));
        assertEquals(
            java.util.List.of("patch"),
            cluster.serviceAccountRequests().stream().map(r -> r.verb()).toList());
      }
    }
  }

  @Test
  void aRefusalComesBackWithTheApiServersReasonAndMessage() {
    server
        .expect()
        .patch()
        .withPath(PATH)
        .andReturn(
            422,
            new StatusBuilder()
                .withCode(422)
                .withReason("Invalid")
                .withMessage("the test operation failed: uid")
                .build())
        .once();

    PodGates.Result result = new PodGates(client).release("team-a", "web", "uid-1", 0);

    assertFalse(result.released());
    assertEquals(new PodGates.Result(422, "Invalid", "the test operation failed: uid"), result);
  }

  @Test
  void aRefusalWithoutAReasonIsUnknownAndKeepsItsMessage() {
    server
        .expect()
        .patch()
        .withPath(PATH)
        .andReturn(403, new StatusBuilder().withCode(403).withMessage("denied by policy").build())
        .once();

    PodGates.Result result = new PodGates(client).release("team-a", "web", "uid-1", 0);

    assertEquals(new PodGates.Result(403, "Unknown", "denied by policy"), result);
  }

  @Test
  void noAnswerIsATransportFailureWithCodeZero() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    Config config =
        new ConfigBuilder()
            .withMasterUrl("http://127.0.0.1:" + closed)
            .withRequestRetryBackoffLimit(0)
            .build();
    try (KubernetesClient unreachable = new KubernetesClientBuilder().withConfig(config).build()) {
      PodGates.Result result = new PodGates(unreachable).release("team-a", "web", "uid-1", 0);

      assertFalse(result.released());
      assertEquals(0, result.code());
      assertEquals("Transport", result.reason());
    }
  }

  @Test
  void aGateThatIsNotThereIsAClientErrorNotAThrow() {
    PodGates.Result result = new PodGates(client).release("team-a", "web", "uid-1", -1);

    assertEquals(new PodGates.Result(0, "ClientError", "IllegalArgumentException"), result);
  }
}
