package io.kuik.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.kuik.cli.Main;
import io.kuik.cli.WebhookCommand;
import io.kuik.kube.MockCluster;
import java.nio.file.Path;
import java.time.Duration;
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

  private String[] flags() {
    return new String[] {
      "--cluster-resource-namespace=kuik-system",
      "--tls-cert-file=" + cert,
      "--tls-key-file=" + key,
      "--shutdown-delay=0s",
      "--log-format=text"
    };
  }

  @Test
  void whileItsInformersStillList() throws Exception {
    cluster.slowListsOf("namespaces", Duration.ofSeconds(20));
    RunningWebhook webhook =
        new RunningWebhook(TestCertificates.trusting(pair.certificate()), flags());
    assertEquals(503, webhook.health("/readyz").statusCode(), "still listing");

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
}
