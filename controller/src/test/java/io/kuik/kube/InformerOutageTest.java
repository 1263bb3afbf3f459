package io.kuik.kube;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kuik.LogLines;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An informer whose API server goes away is told once per answer, not at each of fabric8's
 * reconnects: a warning that its watch is down (and one if a relist meets another answer), the
 * detail at debug (docs/operations.md#logs).
 */
class InformerOutageTest {

  /** The lines about this test's informer, with their level. */
  private static List<String> about(LogLines lines) {
    return lines.containing("namespaces of the outage test");
  }

  @Test
  void aWatchThatGoesDownIsAWarningPerAnswerNotPerReconnect() throws Exception {
    LogLines lines = LogLines.of(InformerHealth.class);
    MockCluster cluster = new MockCluster();
    // A client of its own: the cluster's closes with it, and its informers stop rather than retry.
    KubernetesClient client =
        new KubernetesClientBuilder()
            .withConfig(
                new ConfigBuilder()
                    .withMasterUrl(cluster.url())
                    .withTrustCerts(true)
                    .withRequestRetryBackoffLimit(0)
                    .build())
            .build();
    SharedIndexInformer<Namespace> informer = client.namespaces().runnableInformer(0);
    try {
      InformerHealth.reportStop(informer, "namespaces of the outage test");
      informer.start().toCompletableFuture().get(30, TimeUnit.SECONDS);

      cluster.close();
      await("a warning that the watch is down")
          .atMost(Duration.ofSeconds(30))
          .until(() -> !about(lines).isEmpty());
      Thread.sleep(12_000); // fabric8 reconnects meanwhile, each time in vain

      List<String> said = about(lines);
      List<String> warned = said.stream().filter(line -> line.startsWith("WARNING")).toList();
      // fabric8 retried meanwhile, each failure a debug line; a warning only for each answer (the
      // watch down, a relist without an answer), whatever the number of reconnects. None when
      // another informer of this JVM's tests already told the same answers.
      assertTrue(warned.size() <= 2, said.toString());
      assertEquals(
          (long) warned.size(),
          warned.stream()
              .map(line -> line.replaceAll(".*outage test: ([^:]*):.*", "$1"))
              .distinct()
              .count(),
          "one warning per answer: " + warned);
      assertTrue(
          said.stream()
              .allMatch(line -> line.matches("(WARNING|FINE) lists and watches failing.*")),
          said.toString());
    } finally {
      informer.stop();
      client.close();
      lines.close();
    }
  }
}
