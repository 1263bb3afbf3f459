package io.kuik.webhook;

import static io.kuik.kube.ClusterFixtures.INSTALL_NAMESPACE;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kuik.image.ChartJvmOptions;
import io.kuik.kube.ClusterFixtures;
import io.kuik.kube.ForkedKuik;
import io.kuik.kube.JvmHeap;
import io.kuik.kube.Metrics;
import io.kuik.kube.MockCluster;
import io.kuik.model.PullSecretGate;
import io.kuik.model.RewriteAnnotations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The webhook's memory for gated pods, measured as the review of issue 34 measured it: the runnable
 * {@code kuik webhook --pull-secret-first=true}, in a JVM of its own with the chart's JVM options,
 * against fabric8's mock API server where a tenant holds 300 pods of 250 KB each (an annotation and
 * an env value) on the gate with kuik's label. The heap after a full GC grows by less than 8 MiB,
 * whether the pods come through the watch or the list of a webhook that starts after them
 * (docs/decisions/0061-what-the-webhook-reads-of-pods.md). The figures are written to {@code
 * controller/target/gated-pods-heap.txt}.
 */
class GatedPodsHeapOnMockApiServerTest {

  static final int PODS = 300;
  static final int POD_BYTES = 250 * 1024;
  static final double MOST_GROWTH_MIB = 8;

  private final MockCluster cluster = new MockCluster();
  private final KubernetesClient client = cluster.client();
  private ForkedKuik webhook;
  private ForkedKuik restarted;

  @AfterEach
  void stop() {
    for (ForkedKuik process : new ForkedKuik[] {webhook, restarted}) {
      if (process != null) {
        process.close();
      }
    }
    cluster.close();
  }

  private ForkedKuik start(Path tls) throws Exception {
    return ForkedKuik.start(
            ChartJvmOptions.of("webhook"),
            cluster.kubeconfig(),
            "webhook",
            "--port=" + ForkedKuik.freePort(),
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
            "--tls-cert-file=" + tls.resolve("tls.crt"),
            "--tls-key-file=" + tls.resolve("tls.key"),
            "--shutdown-delay=0s",
            "--log-format=text",
            "--pull-secret-first=true",
            "--gate-max-wait=1h")
        .awaitReady();
  }

  @Test
  void threeHundredGatedPodsOf250KbGrowTheHeapByLessThan8MiB(@TempDir Path tls) throws Exception {
    assumeTrue(Files.isExecutable(JvmHeap.jcmd()), "the JDK's jcmd measures the heap");
    TestCertificates.Pair pair = TestCertificates.generate(tls, "webhook", "EC");
    TestCertificates.write(
        tls.resolve("tls.crt"), tls.resolve("tls.key"), pair, TestCertificates.sec1Pem(pair.key()));
    ClusterFixtures fixtures = new ClusterFixtures(client);
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("tenant", Map.of());
    webhook = start(tls);
    double before = settledHeap(webhook);

    String blob = "x".repeat(POD_BYTES / 2);
    for (int i = 0; i < PODS; i++) {
      client.resource(heavyGatedPod("hold-" + i, blob)).create();
    }
    awaitGated(webhook);
    double watched = settledHeap(webhook);
    restarted = start(tls);
    awaitGated(restarted);
    double listed = settledHeap(restarted);

    String figures =
        String.format(
            Locale.ROOT,
            "%d gated pods of %d KB, webhook with %s: heap after a full GC %.1f MiB before,"
                + " %.1f MiB after they came through the watch (+%.1f), %.1f MiB in a webhook"
                + " started after them (+%.1f)%n",
            PODS,
            POD_BYTES / 1024,
            ChartJvmOptions.written("webhook"),
            before,
            watched,
            watched - before,
            listed,
            listed - before);
    Path out = Path.of(System.getProperty("basedir", ".")).resolve("target/gated-pods-heap.txt");
    Files.createDirectories(out.getParent());
    Files.writeString(out, figures);
    System.out.print(figures);
    assertTrue(watched - before < MOST_GROWTH_MIB, figures);
    assertTrue(listed - before < MOST_GROWTH_MIB, figures);
  }

  /**
   * The lowest of five full-GC measures a second apart: what the process keeps, not a watch event
   * it is reading at that moment (fabric8's mock sends the listed pods again on the watch).
   */
  private static double settledHeap(ForkedKuik process) throws Exception {
    double least = Double.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      least = Math.min(least, process.heapAfterFullGcMiB());
      Thread.sleep(1000);
    }
    return least;
  }

  private static void awaitGated(ForkedKuik process) {
    await("the webhook knows every gated pod")
        .atMost(Duration.ofSeconds(120))
        .ignoreExceptions()
        .until(() -> Metrics.value(process.body("/metrics"), "kuik_webhook_pods_gated") == PODS);
  }

  /** A tenant's pod with kuik's label and gate, a large annotation and a large env value. */
  private static Pod heavyGatedPod(String name, String blob) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("tenant")
        .withUid("uid-" + name)
        .withCreationTimestamp(Instant.now().toString())
        .withLabels(
            Map.of(RewriteAnnotations.REWRITTEN_LABEL, RewriteAnnotations.REWRITTEN_LABEL_VALUE))
        .withAnnotations(Map.of("tenant.example/blob", blob))
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("app")
        .withImage("registry.example.com/acme/app:1.0")
        .addNewEnv()
        .withName("BLOB")
        .withValue(blob)
        .endEnv()
        .endContainer()
        .withSchedulingGates(List.of(new PodSchedulingGate(PullSecretGate.NAME)))
        .endSpec()
        .build();
  }
}
