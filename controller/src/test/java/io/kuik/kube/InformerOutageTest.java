package io.kuik.kube;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.text.MessageFormat;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * An informer whose API server goes away is told once per answer, not at each of fabric8's
 * reconnects: a warning that its watch is down (and one if a relist meets another answer), the
 * detail at debug (docs/operations.md#logs).
 */
class InformerOutageTest {

  // Kept in a field: java.util.logging holds loggers weakly, and a collected one loses its level.
  private final Logger logs = Logger.getLogger(InformerHealth.class.getName());

  /** The lines about this test's informer, with their level. */
  private static List<String> about(List<LogRecord> lines) {
    return lines.stream()
        .map(r -> r.getLevel() + " " + MessageFormat.format(r.getMessage(), r.getParameters()))
        .filter(line -> line.contains("namespaces of the outage test"))
        .toList();
  }

  @Test
  void aWatchThatGoesDownIsAWarningPerAnswerNotPerReconnect() throws Exception {
    List<LogRecord> lines = new CopyOnWriteArrayList<>();
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            lines.add(record);
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    Level before = logs.getLevel();
    logs.setLevel(Level.ALL);
    logs.addHandler(capture);
    logs.setUseParentHandlers(false);
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
      logs.removeHandler(capture);
      logs.setUseParentHandlers(true);
      logs.setLevel(before);
    }
  }
}
