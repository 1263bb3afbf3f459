package io.kuik.scale;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.kuik.kube.MockCluster;
import io.kuik.kube.ServerSideApplyDispatcher;
import io.kuik.model.crd.ImageAlternative;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * fabric8's mock API server in CRUD mode, with server-side apply and paginated lists ({@link
 * ServerSideApplyDispatcher}) and, unless told {@code scan}, its store indexed ({@link
 * IndexedApiStore}), behind an {@link ApiLedger}, filled with a {@link ScaleWorkload}; and a
 * kubeconfig whose token marks the syncer's requests.
 */
final class ScaleCluster implements AutoCloseable {

  private static final String SYNCER_TOKEN = "syncer-under-test";

  /** The chart's admission policy and binding for the release kuik, which the syncer reads. */
  private final KubernetesMockServer server;

  private final ApiLedger ledger;
  private final KubernetesClient client;
  private final Path kubeconfig;

  ScaleCluster(ScaleWorkload workload, Path work, boolean indexed) throws IOException {
    ServerSideApplyDispatcher store =
        indexed
            ? new IndexedApiStore(ServerSideApplyDispatcher.routingKinds())
            : ServerSideApplyDispatcher.withRoutingKinds();
    seed(store, workload);
    ledger = new ApiLedger(store, SYNCER_TOKEN);
    server =
        new KubernetesMockServer(
            new Context(), MockCluster.webServer(), new HashMap<>(), ledger, false);
    server.init();
    client = server.createClient();
    arrangeRouting(client);
    kubeconfig = work.resolve("kubeconfig.yaml");
    Files.writeString(kubeconfig, kubeconfig("http://127.0.0.1:" + server.getPort()));
  }

  ApiLedger ledger() {
    return ledger;
  }

  Path kubeconfig() {
    return kubeconfig;
  }

  /** Creates a pod through the API (so that watches see it), as kuik's webhook rewrote it. */
  void createRewrittenPod(String namespace, String name, String rewriter, long seed) {
    client
        .resource(
            client
                .getKubernetesSerialization()
                .unmarshal(ScaleWorkload.podJson(namespace, name, rewriter, seed), Pod.class))
        .create();
  }

  /** The same pod as the webhook leaves it with pull secret first: gated. */
  void createGatedPod(String namespace, String name, String rewriter, long seed) {
    Pod pod =
        client
            .getKubernetesSerialization()
            .unmarshal(ScaleWorkload.podJson(namespace, name, rewriter, seed), Pod.class);
    pod.getSpec()
        .setSchedulingGates(
            java.util.List.of(
                new io.fabric8.kubernetes.api.model.PodSchedulingGate(
                    io.kuik.model.PullSecretGate.NAME)));
    client.resource(pod).create();
  }

  private static void seed(ServerSideApplyDispatcher store, ScaleWorkload workload) {
    store.seed("/api/v1/namespaces", ScaleWorkload.namespaceJson(ScaleWorkload.INSTALL_NAMESPACE));
    for (int j = 0; j < workload.namespaces; j++) {
      String namespace = ScaleWorkload.namespace(j);
      store.seed("/api/v1/namespaces", ScaleWorkload.namespaceJson(namespace));
      for (int s = 0; s < ScaleWorkload.UNRELATED_SECRETS; s++) {
        store.seed(
            "/api/v1/namespaces/" + namespace + "/secrets",
            ScaleWorkload.unrelatedSecretJson(namespace, s));
      }
      for (int m = 0; m < ScaleWorkload.PODS_PER_NAMESPACE; m++) {
        int i = j * ScaleWorkload.PODS_PER_NAMESPACE + m;
        store.seed("/api/v1/namespaces/" + namespace + "/pods", workload.podJson(i));
      }
    }
  }

  private static void arrangeRouting(KubernetesClient client) {
    String config =
        "{\"auths\":{\"mirror.example.com\":{\"auth\":\""
            + Base64.getEncoder()
                .encodeToString("kuik:password-of-kuik".getBytes(StandardCharsets.UTF_8))
            + "\"}}}";
    client
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(ScaleWorkload.SOURCE_SECRET)
                .withNamespace(ScaleWorkload.INSTALL_NAMESPACE)
                .endMetadata()
                .withType("kubernetes.io/dockerconfigjson")
                .withData(
                    Map.of(
                        ".dockerconfigjson",
                        Base64.getEncoder()
                            .encodeToString(config.getBytes(StandardCharsets.UTF_8))))
                .build())
        .create();
    // The chart's admission policy and binding: the syncer writes only while they exist.
    MockCluster.installAdmissionPolicy(client);
    for (int a = 0; a < ScaleWorkload.ALWAYS; a++) {
      put(client, ScaleWorkload.routingResource("always-" + a, true));
    }
    for (int k = 0; k < ScaleWorkload.ON_FAILURE; k++) {
      put(client, ScaleWorkload.routingResource("onfailure-" + k, false));
    }
  }

  private static void put(KubernetesClient client, String yaml) {
    client
        .resource(client.getKubernetesSerialization().unmarshal(yaml, ImageAlternative.class))
        .create();
  }

  private static String kubeconfig(String server) {
    return String.join(
        "\n",
        "apiVersion: v1",
        "kind: Config",
        "clusters:",
        "- name: mock",
        "  cluster:",
        "    server: " + server,
        "contexts:",
        "- name: mock",
        "  context:",
        "    cluster: mock",
        "    user: syncer",
        "    namespace: " + ScaleWorkload.INSTALL_NAMESPACE,
        "current-context: mock",
        "users:",
        "- name: syncer",
        "  user:",
        "    token: " + SYNCER_TOKEN,
        "");
  }

  @Override
  public void close() {
    client.close();
    server.destroy();
  }
}
