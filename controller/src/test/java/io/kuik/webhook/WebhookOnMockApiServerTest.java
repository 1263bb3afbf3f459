package io.kuik.webhook;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.zjsonpatch.JsonPatch;
import io.kuik.kube.MalformedRoutingResources;
import io.kuik.kube.MockCluster;
import io.kuik.model.crd.ImageAlternative;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The real {@code kuik webhook} command against fabric8's mock API server, over real HTTPS with a
 * keytool certificate, probing a registry of the test's own: an ImageAlternative created through
 * the API rewrites a pod whose original image is missing to the copy its Secret can read, and adds
 * the pull Secret the syncer fills (docs/behaviour.md#routing-pods).
 */
class WebhookOnMockApiServerTest {

  private static final Duration PATIENCE = Duration.ofSeconds(20);
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String INSTALL_NAMESPACE = "kuik-system";

  private final MockCluster cluster = new MockCluster();
  private final KubernetesClient client = cluster.client();
  private InTestRegistry registry;
  private RunningWebhook webhook;

  @BeforeEach
  void start(@TempDir Path tls) throws Exception {
    registry = new InTestRegistry();
    registry.serve("acme/app", "1.0", "alice", "password-of-alice");
    put(new NamespaceBuilder().withNewMetadata().withName(INSTALL_NAMESPACE).endMetadata().build());
    put(new NamespaceBuilder().withNewMetadata().withName("team-a").endMetadata().build());
    put(pullSecret());
    // Every test runs beside malformed resources, stored as an API server without the schema would.
    MalformedRoutingResources.create(client, "listed-");

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
            "--probe-timeout=2s",
            "--insecure-registries=" + registry.host(),
            "--shutdown-delay=0s",
            "--log-format=text");
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
  void rewritesAPodWhoseOriginalIsMissingToTheCopyAndCountsIt() {
    put(imageAlternative());

    JsonNode answer = awaitPatched("team-a");

    JsonNode pod = patched(answer, "team-a");
    assertEquals(registry.host() + "/acme/app:1.0", pod.at("/spec/containers/0/image").asString());
    assertEquals(
        "[{\"name\":\"kuik-inject-imagealternative-acme\"}]",
        pod.at("/spec/imagePullSecrets").toString());
    assertEquals(
        "{\"app\":\"ImageAlternative/acme\"}",
        pod.at("/metadata/annotations/kuik.enix.io~1rewritten-by").asString());
    assertEquals("uid-team-a", answer.at("/response/uid").asString());

    String metrics = webhook.health("/metrics").body();
    assertEquals(1, sample(metrics, "kuik_webhook_admissions_total{result=\"rewritten\"}"));
    assertEquals(
        1, sample(metrics, "kuik_webhook_rewrites_total{reason=\"on_failure_alternative\"}"));
    assertTrue(sample(metrics, "kuik_webhook_probes_total{outcome=\"not_found\"}") >= 1, metrics);
    assertTrue(sample(metrics, "kuik_webhook_probes_total{outcome=\"available\"}") >= 1, metrics);
    assertTrue(sample(metrics, "kuik_webhook_probe_duration_seconds_count") >= 1, metrics);
    assertTrue(sample(metrics, "kuik_webhook_registry_requests_total") >= 3, "404, 401, 200");
    assertEquals(1, sample(metrics, "kuik_webhook_routing_resources{validity=\"valid\"}"));
    assertTrue(
        sample(metrics, "kuik_webhook_requests_total{code=\"200\",result=\"answered\"}") >= 1,
        metrics);
    assertTrue(sample(metrics, "kuik_webhook_admission_duration_seconds_count") >= 1, metrics);
    assertEquals(0, sample(metrics, "kuik_webhook_rewrites_total{reason=\"always_mirror\"}"));
    assertTrue(sample(metrics, "jvm_memory_used_bytes{area=\"heap\"}") > 0, metrics);
    assertTrue(sample(metrics, "kuik_api_requests_total{code=\"200\",verb=\"GET\"}") >= 4, metrics);
  }

  @Test
  void malformedResourcesAreInvalidAndTheGoodOneCreatedAfterThemRoutes() {
    MalformedRoutingResources.create(client, "watched-");
    put(imageAlternative());

    JsonNode pod = patched(awaitPatched("team-a"), "team-a");

    assertEquals(registry.host() + "/acme/app:1.0", pod.at("/spec/containers/0/image").asString());
    int malformed = 2 * MalformedRoutingResources.SHAPES.size();
    await("every malformed resource counted invalid")
        .atMost(PATIENCE)
        .until(
            () ->
                sample(
                        webhook.health("/metrics").body(),
                        "kuik_webhook_routing_resources{validity=\"invalid\"}")
                    == malformed);
    assertEquals(200, webhook.health("/healthz").statusCode());
    assertEquals(200, webhook.health("/readyz").statusCode());
  }

  @Test
  void followsTheResourceAndTheNamespacesAsTheyChange() {
    put(imageAlternative());
    awaitPatched("team-a");

    client.resources(ImageAlternative.class).withName("acme").delete();
    await("the deletion reaches the index")
        .atMost(PATIENCE)
        .until(() -> !review("team-a").at("/response").has("patch"));

    assertFalse(review("team-b").at("/response").has("patch"), "team-b does not exist");
    String metrics = webhook.health("/metrics").body();
    assertTrue(
        sample(metrics, "kuik_webhook_admissions_total{result=\"namespace_unknown\"}") >= 1,
        metrics);
    assertEquals(0, webhook.stop(), "SIGTERM ends it cleanly");
  }

  /** POSTs the review until its answer carries a patch: the informers deliver asynchronously. */
  private JsonNode awaitPatched(String namespace) {
    JsonNode[] answer = new JsonNode[1];
    await("a patch for the pod in " + namespace)
        .atMost(PATIENCE)
        .until(
            () -> {
              answer[0] = review(namespace);
              return answer[0].at("/response").has("patch");
            });
    return answer[0];
  }

  /** The webhook's answer to the creation of {@link #pod} in {@code namespace}. */
  private JsonNode review(String namespace) {
    HttpResponse<String> response =
        webhook.post(WebhookServer.MUTATE_PODS, JSON.writeValueAsString(review(pod(namespace))));
    assertEquals(200, response.statusCode(), response.body());
    JsonNode answer = JSON.readTree(response.body());
    assertTrue(answer.at("/response/allowed").asBoolean(), response.body());
    return answer;
  }

  private JsonNode pod(String namespace) {
    return JSON.readTree(
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"generateName\":\"web-\","
            + "\"namespace\":\""
            + namespace
            + "\"},\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\""
            + registry.host()
            + "/upstream/app:1.0\"}]}}");
  }

  private static JsonNode review(JsonNode pod) {
    String namespace = pod.at("/metadata/namespace").asString();
    return JSON.readTree(
        "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
            + "\"uid\":\"uid-"
            + namespace
            + "\",\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},"
            + "\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"pods\"},"
            + "\"namespace\":\""
            + namespace
            + "\",\"operation\":\"CREATE\",\"object\":"
            + JSON.writeValueAsString(pod)
            + "}}");
  }

  /** The pod with the answer's patch applied, as the API server would. */
  private JsonNode patched(JsonNode answer, String namespace) {
    String patch =
        new String(
            Base64.getDecoder().decode(answer.at("/response/patch").asString()),
            StandardCharsets.UTF_8);
    return JsonPatch.apply(JSON.readTree(patch), pod(namespace));
  }

  /**
   * ImageAlternative "acme", OnFailure: the upstream repository, which the registry lacks, and its
   * copy, which the registry serves to the credential of Secret acme-pull.
   */
  private ImageAlternative imageAlternative() {
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
    return client.getKubernetesSerialization().unmarshal(yaml, ImageAlternative.class);
  }

  /** The secretRef Secret in the install namespace: alice's credential for the registry. */
  private HasMetadata pullSecret() {
    String auth =
        Base64.getEncoder()
            .encodeToString("alice:password-of-alice".getBytes(StandardCharsets.UTF_8));
    String config = "{\"auths\":{\"" + registry.host() + "\":{\"auth\":\"" + auth + "\"}}}";
    return new SecretBuilder()
        .withNewMetadata()
        .withName("acme-pull")
        .withNamespace(INSTALL_NAMESPACE)
        .endMetadata()
        .withType("kubernetes.io/dockerconfigjson")
        .withData(
            Map.of(
                ".dockerconfigjson",
                Base64.getEncoder().encodeToString(config.getBytes(StandardCharsets.UTF_8))))
        .build();
  }

  private void put(HasMetadata object) {
    client.resource(object).createOr(existing -> existing.update());
  }

  /** The value of the sample line that starts with {@code sample} (name and labels). */
  private static double sample(String exposition, String sample) {
    for (String line : exposition.split("\n")) {
      if (line.startsWith(sample + " ")) {
        return Double.parseDouble(line.substring(sample.length() + 1).trim().split(" ")[0]);
      }
    }
    throw new AssertionError("no sample " + sample + " in:\n" + exposition);
  }
}
