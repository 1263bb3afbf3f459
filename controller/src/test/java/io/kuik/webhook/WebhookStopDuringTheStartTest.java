package io.kuik.webhook;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.kuik.cli.Main;
import io.kuik.cli.WebhookCommand;
import io.kuik.kube.MockCluster;
import io.kuik.kube.ProcessLeftovers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * SIGTERM at any moment of the webhook's start ends it cleanly, exit code 0, within seconds: while
 * its informers still list (not ready, admitting nothing), and before the command ran its process
 * at all. The syncer's are {@code StopDuringTheStartTest}'s.
 */
class WebhookStopDuringTheStartTest {

  private static final Duration PROMPTLY = Duration.ofSeconds(10);

  private final MockCluster cluster = new MockCluster();
  private Path cert;
  private Path key;
  private TestCertificates.Pair pair;

  @BeforeEach
  void certificate(@TempDir Path tls) throws Exception {
    cluster
        .client()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName("kuik-system").endMetadata().build())
        .create();
    pair = TestCertificates.generate(tls, "webhook", "EC");
    cert = tls.resolve("tls.crt");
    key = tls.resolve("tls.key");
    TestCertificates.write(cert, key, pair, TestCertificates.sec1Pem(pair.key()));
  }

  @AfterEach
  void close() {
    cluster.close();
  }

  /** The webhook's flags for this cluster and certificate, and {@code more}. */
  private String[] flags(String... more) {
    return java.util.stream.Stream.concat(
            java.util.stream.Stream.of(
                "--cluster-resource-namespace=kuik-system",
                "--tls-cert-file=" + cert,
                "--tls-key-file=" + key,
                "--shutdown-delay=0s",
                "--log-format=text"),
            java.util.stream.Stream.of(more))
        .toArray(String[]::new);
  }

  @Test
  void whileItsInformersStillList() throws Exception {
    cluster.slowListsOf("namespaces", Duration.ofSeconds(20));
    RunningWebhook webhook =
        new RunningWebhook(TestCertificates.trusting(pair.certificate()), flags());
    assertEquals(503, webhook.health("/readyz").statusCode(), "still listing");
    assertEquals(0, synced(webhook), "the gauge says what /readyz says");

    long start = System.nanoTime();
    assertEquals(0, webhook.stop());
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertTrue(took.compareTo(PROMPTLY) < 0, "stopped in " + took);
  }

  @Test
  void beforeTheCommandRanItsProcess() throws Exception {
    CommandLine commandLine = Main.commandLine();
    WebhookCommand command =
        (WebhookCommand) commandLine.getSubcommands().get("webhook").getCommand();
    command.stop();
    String[] flags = flags();
    String[] args = new String[flags.length + 3];
    args[0] = "webhook";
    args[1] = "--port=0";
    args[2] = "--health-port=0";
    System.arraycopy(flags, 0, args, 3, flags.length);

    CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(() -> commandLine.execute(args));

    assertEquals(0, exit.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS));
  }

  /**
   * A ready webhook asked to stop fails /readyz at once and answers admissions through its shutdown
   * delay (the Service takes a moment to stop sending), then ends every thread it started and frees
   * both its ports.
   */
  @Test
  void aReadyWebhookAnswersThroughItsShutdownDelayThenLeavesNoThreadAndNoPortBehind()
      throws Exception {
    Set<Thread> before = ProcessLeftovers.kuikThreads();
    RunningWebhook webhook =
        new RunningWebhook(
            TestCertificates.trusting(pair.certificate()),
            "--cluster-resource-namespace=kuik-system",
            "--tls-cert-file=" + cert,
            "--tls-key-file=" + key,
            "--shutdown-delay=5s",
            "--log-format=text");
    await("ready").atMost(Duration.ofSeconds(30)).until(() -> ready(webhook));
    assertEquals(1, synced(webhook));
    String review = new String(AdmissionFixtures.recorded("pod-create.json"), UTF_8);
    assertEquals(200, webhook.post(WebhookServer.MUTATE_PODS, review).statusCode());

    long start = System.nanoTime();
    CompletableFuture<Integer> stopped = CompletableFuture.supplyAsync(webhook::stop);
    await("not ready once asked to stop")
        .atMost(Duration.ofSeconds(3))
        .until(() -> !ready(webhook));
    assertEquals(
        200,
        webhook.post(WebhookServer.MUTATE_PODS, review).statusCode(),
        "still answering within the delay");
    assertEquals(0, stopped.get(30, TimeUnit.SECONDS));
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertTrue(took.compareTo(Duration.ofSeconds(5)) >= 0, "the delay is kept: " + took);

    ProcessLeftovers.awaitNoThreadBut(before);
    ProcessLeftovers.assertFree(webhook.port(), webhook.healthPort());
  }

  /** With pull secret first, the gate keeper's threads end with the webhook too. */
  @Test
  void withPullSecretFirstTheGateKeepersThreadsEndToo() throws Exception {
    Set<Thread> before = ProcessLeftovers.kuikThreads();
    RunningWebhook webhook =
        new RunningWebhook(
            TestCertificates.trusting(pair.certificate()), flags("--pull-secret-first=true"));
    await("ready").atMost(Duration.ofSeconds(30)).until(() -> ready(webhook));
    await("the gate keeper runs")
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                ProcessLeftovers.kuikThreads().stream()
                    .anyMatch(t -> t.getName().startsWith("kuik-gate-keeper")));

    assertEquals(0, webhook.stop());

    ProcessLeftovers.awaitNoThreadBut(before);
  }

  private static double synced(RunningWebhook webhook) {
    return io.kuik.kube.Metrics.value(
        webhook.health("/metrics").body(), "kuik_webhook_informers_synced");
  }

  private static boolean ready(RunningWebhook webhook) {
    return webhook.health("/readyz").statusCode() == 200;
  }
}
