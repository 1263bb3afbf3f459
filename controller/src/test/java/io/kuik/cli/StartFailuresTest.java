package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.kuik.kube.MockCluster;
import io.kuik.webhook.TestCertificates;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A start that cannot go on ends with exit code 1 and one line that says why, in this JVM as in a
 * real process ({@code ProcessExitCodesTest} forks them): a kubeconfig named that does not exist, a
 * health port or webhook port another process holds.
 */
class StartFailuresTest {

  @TempDir Path dir;
  private String kubeconfig;
  private PrintStream stderr;
  private final ByteArrayOutputStream logged = new ByteArrayOutputStream();

  @BeforeEach
  void captureStandardError() {
    kubeconfig = System.getProperty("kubeconfig");
    stderr = System.err;
    System.setErr(new PrintStream(logged, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void putBack() {
    System.setErr(stderr);
    if (kubeconfig == null) {
      System.clearProperty("kubeconfig");
    } else {
      System.setProperty("kubeconfig", kubeconfig);
    }
  }

  private record Run(int exit, String said) {}

  private Run run(String... args) {
    CommandLine commandLine = Main.commandLine();
    StringWriter err = new StringWriter();
    commandLine.setErr(new PrintWriter(err, true));
    commandLine.setOut(new PrintWriter(new StringWriter(), true));
    int exit = commandLine.execute(args);
    return new Run(exit, err + logged.toString(StandardCharsets.UTF_8));
  }

  private String[] webhook(String... more) throws Exception {
    TestCertificates.Pair pair = TestCertificates.generate(dir, "webhook", "EC");
    Path[] tls = {dir.resolve("tls.crt"), dir.resolve("tls.key")};
    TestCertificates.write(tls[0], tls[1], pair, TestCertificates.sec1Pem(pair.key()));
    List<String> args =
        new ArrayList<>(
            List.of(
                "webhook",
                "--cluster-resource-namespace=kuik-system",
                "--tls-cert-file=" + tls[0],
                "--tls-key-file=" + tls[1],
                "--shutdown-delay=0s",
                "--log-format=text"));
    args.addAll(List.of(more));
    return args.toArray(String[]::new);
  }

  @Test
  void aKubeconfigNamedThatDoesNotExistEndsEveryCommandWithOneNamingIt() throws Exception {
    String missing = dir.resolve("missing-kubeconfig").toString();
    System.setProperty("kubeconfig", missing);
    for (String[] args :
        List.of(
            new String[] {
              "syncer", "--cluster-resource-namespace=kuik-system", "--log-format=text"
            },
            webhook(),
            new String[] {"selftest", "--release", "kuik", "-n", "kuik-system"},
            new String[] {"explain", "pod", "team-a/web"})) {
      logged.reset();

      Run run = run(args);

      assertEquals(1, run.exit(), args[0] + ": " + run.said());
      assertTrue(
          run.said()
              .contains("kubeconfig " + missing + " (system property kubeconfig) does not exist"),
          args[0] + ": " + run.said());
    }
  }

  @Test
  void aTakenHealthPortEndsBothComponentsWithOneNamingIt() throws Exception {
    try (MockCluster cluster = new MockCluster();
        ServerSocket taken = new ServerSocket(0)) {
      withTheInstallNamespace(cluster);
      String port = "--health-port=" + taken.getLocalPort();
      for (String[] args :
          List.of(
              new String[] {
                "syncer", "--cluster-resource-namespace=kuik-system", "--log-format=text", port
              },
              webhook("--port=0", port))) {
        logged.reset();

        Run run = run(args);

        assertEquals(1, run.exit(), args[0] + ": " + run.said());
        assertTrue(
            run.said().contains("port " + taken.getLocalPort()), args[0] + ": " + run.said());
      }
    }
  }

  @Test
  void aTakenWebhookPortEndsItWithOneNamingIt() throws Exception {
    try (MockCluster cluster = new MockCluster();
        ServerSocket taken = new ServerSocket(0)) {
      withTheInstallNamespace(cluster);

      Run run = run(webhook("--port=" + taken.getLocalPort(), "--health-port=0"));

      assertEquals(1, run.exit(), run.said());
      assertTrue(run.said().contains("cannot start the webhook"), run.said());
    }
  }

  private static void withTheInstallNamespace(MockCluster cluster) {
    cluster
        .client()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName("kuik-system").endMetadata().build())
        .create();
  }
}
