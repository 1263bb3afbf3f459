package io.kuik.webhook;

import static io.kuik.kube.ClusterFixtures.INSTALL_NAMESPACE;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kuik.kube.ClusterFixtures;
import io.kuik.kube.MockCluster;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Pull secret first from the runnable {@code kuik webhook --pull-secret-first=true} against
 * fabric8's mock API server: a pod given a pull-secret reference is gated while the syncer's Lease
 * is fresh and not once it is stale, and a pod still gated past {@code --gate-max-wait} is released
 * with a Warning Event PullSecretNotReady, the syncer nowhere
 * (docs/decisions/0052-pull-secret-first.md); while the pod-gates policy is away it gates and
 * patches nothing (docs/decisions/0056-policies-watched-by-name.md).
 */
class PullSecretFirstWebhookOnMockApiServerTest {

  private static final Duration PATIENCE = Duration.ofSeconds(20);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final MockCluster cluster = new MockCluster();
  private final KubernetesClient client = cluster.client();
  private final ClusterFixtures fixtures = new ClusterFixtures(client);
  private InTestRegistry registry;
  private RunningWebhook webhook;

  @BeforeEach
  void start(@TempDir Path tls) throws Exception {
    registry = new InTestRegistry();
    registry.serve("acme/app", "1.0", "alice", "password-of-alice");
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    TestCertificates.Pair pair = TestCertificates.generate(tls, "webhook", "EC");
    Path cert = tls.resolve("tls.crt");
    Path key = tls.resolve("tls.key");
    TestCertificates.write(cert, key, pair, TestCertificates.sec1Pem(pair.key()));
    webhook =
        new RunningWebhook(
            TestCertificates.trusting(pair.certificate()),
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
            "--tls-cert-file=" + cert,
            "--tls-key-file=" + key,
            "--insecure-registries=" + registry.host(),
            "--shutdown-delay=0s",
            "--log-format=text",
            "--pull-secret-first=true",
            "--gate-max-wait=3s");
    await("ready").atMost(PATIENCE).until(() -> webhook.health("/readyz").statusCode() == 200);
  }

  @AfterEach
  void stop() {
    if (webhook != null) {
      webhook.close();
    }
    if (registry != null) {
      registry.close();
    }
    cluster.close();
  }

  @Test
  void gatesAPodGivenAReferenceOnlyWhileTheSyncersLeaseIsFresh() {
    putAlternative();
    lease(Instant.now());

    await("a gated pod")
        .atMost(PATIENCE)
        .until(() -> "[{\"name\":\"kuik.enix.io/pull-secret\"}]".equals(gates(review())));

    lease(Instant.now().minusSeconds(60));
    await("no gate once the Lease is stale")
        .atMost(PATIENCE)
        .until(() -> gates(review()).equals("null") && rewritten(review()));
  }

  /**
   * A Lease that goes (the syncer uninstalled) gates no new pod from the next read on, not once the
   * renewal the webhook read last would have expired.
   */
  @Test
  void aDeletedLeaseGatesNoPodFromItsNextRead() {
    putAlternative();
    lease(Instant.now());
    await("a gated pod")
        .atMost(PATIENCE)
        .until(() -> "[{\"name\":\"kuik.enix.io/pull-secret\"}]".equals(gates(review())));

    long deleted = System.nanoTime();
    client.leases().inNamespace(INSTALL_NAMESPACE).withName("kuik-secret-syncer").delete();
    await("no gate once the Lease is gone")
        .atMost(PATIENCE)
        .until(() -> gates(review()).equals("null") && rewritten(review()));
    Duration took = Duration.ofNanos(System.nanoTime() - deleted);
    assertTrue(
        took.compareTo(Duration.ofSeconds(10)) < 0,
        "within a few Lease reads (every 2 s), not the 15 s the last renewal had left: " + took);
  }

  @Test
  void releasesAPodStillGatedPastTheBoundWithAWarningEvent() {
    fixtures.gatedRewrittenPod("team-a", "old", Instant.now());

    await("gated within the bound")
        .during(Duration.ofSeconds(1))
        .atMost(PATIENCE)
        .until(
            () ->
                fixtures
                    .gates("team-a", "old")
                    .equals(List.of("example.com/quota", "kuik.enix.io/pull-secret")));
    await("the old pod released")
        .atMost(PATIENCE)
        .until(() -> fixtures.gates("team-a", "old").equals(List.of("example.com/quota")));
    await("its Warning Event")
        .atMost(PATIENCE)
        .until(
            () ->
                client.v1().events().inNamespace("team-a").list().getItems().stream()
                    .anyMatch(this::pullSecretNotReadyOnOld));
    String metrics = webhook.health("/metrics").body();
    assertTrue(metrics.contains("kuik_webhook_gates_released_by_bound_total 1"), metrics);
    assertTrue(metrics.contains("kuik_webhook_pods_gated 0"), metrics);
  }

  /**
   * More pods past the bound than the gate keeper releases at once (16): each answer makes room for
   * the next, and every one is released.
   */
  @Test
  void moreOldGatedPodsThanReleasesInFlightAreAllReleased() {
    List<String> pods = IntStream.range(0, 20).mapToObj(i -> "old-" + i).toList();
    pods.forEach(name -> fixtures.gatedRewrittenPod("team-a", name, Instant.now()));

    await("every one released")
        .atMost(PATIENCE)
        .until(
            () ->
                pods.stream()
                    .allMatch(
                        name ->
                            fixtures.gates("team-a", name).equals(List.of("example.com/quota"))));
    await("counted")
        .atMost(PATIENCE)
        .until(
            () ->
                webhook
                    .health("/metrics")
                    .body()
                    .contains("kuik_webhook_gates_released_by_bound_total 20"));
  }

  /** The syncer released it (its Secret is in place): the bound forgets it at once. */
  @Test
  void aPodWhoseGateTheSyncerRemovedLeavesTheBound() {
    fixtures.gatedRewrittenPod("team-a", "waiting", Instant.now().plusSeconds(60));
    await("counted as gated")
        .atMost(PATIENCE)
        .until(() -> webhook.health("/metrics").body().contains("kuik_webhook_pods_gated 1"));

    client
        .pods()
        .inNamespace("team-a")
        .withName("waiting")
        .edit(
            pod -> {
              pod.getSpec()
                  .setSchedulingGates(
                      pod.getSpec().getSchedulingGates().stream()
                          .filter(gate -> !gate.getName().equals("kuik.enix.io/pull-secret"))
                          .toList());
              return pod;
            });

    await("no longer counted")
        .atMost(PATIENCE)
        .until(() -> webhook.health("/metrics").body().contains("kuik_webhook_pods_gated 0"));
  }

  @Test
  void aGatedPodIsCountedWhileItWaits() {
    // Created (as the fixture says) a minute from now: well within the bound while the test looks.
    fixtures.gatedRewrittenPod("team-a", "waiting", Instant.now().plusSeconds(60));

    await("counted as gated")
        .atMost(PATIENCE)
        .until(() -> webhook.health("/metrics").body().contains("kuik_webhook_pods_gated 1"));
  }

  @Test
  void gatesNoPodAndPatchesNoneWhileThePodGatesPolicyIsAwayThenGatesAgain() {
    putAlternative();
    lease(Instant.now());
    await("a gated pod")
        .atMost(PATIENCE)
        .until(() -> "[{\"name\":\"kuik.enix.io/pull-secret\"}]".equals(gates(review())));

    client
        .admissionRegistration()
        .v1()
        .validatingAdmissionPolicyBindings()
        .withName(MockCluster.POD_GATES_POLICY)
        .delete();
    await("routed, but gated no more, the syncer's Lease fresh: nothing could release it")
        .atMost(PATIENCE)
        .until(() -> renewed() && gates(review()).equals("null") && rewritten(review()));
    fixtures.gatedRewrittenPod("team-a", "old", Instant.now().minusSeconds(60));
    await("a pod gated past the bound keeps its gate: no patch while nothing bounds it")
        .during(Duration.ofSeconds(3))
        .atMost(PATIENCE)
        .until(
            () ->
                fixtures
                    .gates("team-a", "old")
                    .equals(List.of("example.com/quota", "kuik.enix.io/pull-secret")));

    MockCluster.installAdmissionPolicy(client);
    await("gated again once the policy is back")
        .atMost(PATIENCE)
        .until(
            () -> renewed() && "[{\"name\":\"kuik.enix.io/pull-secret\"}]".equals(gates(review())));
    await("and the pod past the bound released")
        .atMost(PATIENCE)
        .until(() -> fixtures.gates("team-a", "old").equals(List.of("example.com/quota")));
  }

  /** The syncer's leader renews its Lease now; true, for use inside a condition. */
  private boolean renewed() {
    lease(Instant.now());
    return true;
  }

  private boolean pullSecretNotReadyOnOld(Event event) {
    return "PullSecretNotReady".equals(event.getReason())
        && "Warning".equals(event.getType())
        && "old".equals(event.getInvolvedObject().getName())
        && event.getMessage().contains("3s after its creation");
  }

  private void lease(Instant renewed) {
    client
        .resource(
            new LeaseBuilder()
                .withNewMetadata()
                .withName("kuik-secret-syncer")
                .withNamespace(INSTALL_NAMESPACE)
                .endMetadata()
                .withNewSpec()
                .withHolderIdentity("kuik-secret-syncer-0")
                .withLeaseDurationSeconds(15)
                .withRenewTime(ZonedDateTime.ofInstant(renewed, ZoneOffset.UTC))
                .endSpec()
                .build())
        .createOr(existing -> existing.update());
  }

  private void putAlternative() {
    String auth =
        Base64.getEncoder()
            .encodeToString("alice:password-of-alice".getBytes(StandardCharsets.UTF_8));
    String config = "{\"auths\":{\"" + registry.host() + "\":{\"auth\":\"" + auth + "\"}}}";
    client
        .resource(
            new io.fabric8.kubernetes.api.model.SecretBuilder()
                .withNewMetadata()
                .withName("acme-pull")
                .withNamespace(INSTALL_NAMESPACE)
                .endMetadata()
                .withType("kubernetes.io/dockerconfigjson")
                .withData(
                    Map.of(
                        ".dockerconfigjson",
                        Base64.getEncoder()
                            .encodeToString(config.getBytes(StandardCharsets.UTF_8))))
                .build())
        .createOr(existing -> existing.update());
    String yaml =
        String.join(
            "\n",
            "apiVersion: kuik.enix.io/v1alpha1",
            "kind: ImageAlternative",
            "metadata:",
            "  name: acme",
            "spec:",
            "  rewritePolicy: OnFailure",
            "  alternatives:",
            "  - repository: " + registry.host() + "/upstream/app",
            "  - repository: " + registry.host() + "/acme/app",
            "    auth:",
            "      secretRef: {name: acme-pull}",
            "");
    client
        .resource(
            client
                .getKubernetesSerialization()
                .unmarshal(yaml, io.kuik.model.crd.ImageAlternative.class))
        .createOr(existing -> existing.update());
  }

  /** The webhook's patch for a pod of team-a, as JSON text ("[]" when it gave none). */
  private JsonNode review() {
    String pod =
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"generateName\":\"web-\","
            + "\"namespace\":\"team-a\"},\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\""
            + registry.host()
            + "/upstream/app:1.0\"}]}}";
    String review =
        "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
            + "\"uid\":\"uid-1\",\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},"
            + "\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"pods\"},"
            + "\"namespace\":\"team-a\",\"operation\":\"CREATE\",\"object\":"
            + pod
            + "}}";
    HttpResponse<String> response = webhook.post(WebhookServer.MUTATE_PODS, review);
    assertEquals(200, response.statusCode(), response.body());
    String patch = JSON.readTree(response.body()).at("/response/patch").asString("");
    return JSON.readTree(
        patch.isEmpty()
            ? "[]"
            : new String(Base64.getDecoder().decode(patch), StandardCharsets.UTF_8));
  }

  private static boolean rewritten(JsonNode patch) {
    for (JsonNode op : patch) {
      if (op.path("path").asString().equals("/spec/imagePullSecrets")) {
        return true;
      }
    }
    return false;
  }

  /** The value the patch gives {@code /spec/schedulingGates}, "null" when it gives none. */
  private static String gates(JsonNode patch) {
    for (JsonNode op : patch) {
      if (op.path("path").asString().equals("/spec/schedulingGates")) {
        return op.path("value").toString();
      }
    }
    return "null";
  }
}
