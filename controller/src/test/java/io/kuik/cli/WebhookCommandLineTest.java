package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.kube.webhook.WebhookRuntimeSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** {@code kuik webhook}'s command line: its help, its refusals, and the settings it builds. */
class WebhookCommandLineTest {

  /** Every flag of the webhook; the chart passes all but three (ChartWebhookArgsTest). */
  static final List<String> FLAGS =
      List.of(
          "--cluster-resource-namespace",
          "--port",
          "--tls-cert-file",
          "--tls-key-file",
          "--health-port",
          "--probe-timeout",
          "--probe-cache-ttl",
          "--insecure-registries",
          "--pull-secret-first",
          "--gate-max-wait",
          "--syncer-lease",
          "--pod-gates-policy",
          "--pod-gates-policy-binding",
          "--excluded-namespaces",
          "--shutdown-delay",
          "--log-format",
          "--log-level");

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private final CommandLine commandLine = Main.commandLine();
  @TempDir Path directory;
  private String cert;
  private String key;

  @BeforeEach
  void tlsFiles() throws IOException {
    // Only their existence is checked on the command line; their content when serving starts.
    cert = "--tls-cert-file=" + Files.writeString(directory.resolve("tls.crt"), "certificate");
    key = "--tls-key-file=" + Files.writeString(directory.resolve("tls.key"), "key");
  }

  private int run(String... args) {
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    return commandLine.execute(args);
  }

  private WebhookRuntimeSettings settings(String... flags) {
    List<String> args = new ArrayList<>(List.of("webhook", cert, key));
    args.addAll(List.of(flags));
    commandLine.parseArgs(args.toArray(String[]::new));
    return ((WebhookCommand) commandLine.getSubcommands().get("webhook").getCommand()).settings();
  }

  @Test
  void helpExplainsEveryFlagWithItsEnvironmentVariable() {
    assertEquals(0, run("webhook", "--help"));

    String help = out.toString();
    for (String flag : FLAGS) {
      assertTrue(help.contains(flag), flag + " in\n" + help);
      String env = "KUIK_" + flag.substring(2).replace('-', '_').toUpperCase();
      assertTrue(help.contains("Env: " + env), env + " in\n" + help);
    }
  }

  @Test
  void theRootHelpListsTheWebhookCommand() {
    assertEquals(0, run("--help"));

    assertTrue(out.toString().contains("webhook"), out.toString());
  }

  @ParameterizedTest(name = "if {0}, expect exit 2 naming {1}")
  @CsvSource({
    "--port=https, 'https'",
    "--port=70000, '70000'",
    "--health-port=-1, '-1'",
    "--health-port=8443, 'different ports'",
    "--probe-timeout=2, '2'",
    "--probe-timeout=0s, 'probeTimeout'",
    "--probe-cache-ttl=half a minute, 'half a minute'",
    "--shutdown-delay=soon, 'soon'",
    "--insecure-registries=http://registry.local:5000, 'http://registry.local:5000'",
    "--insecure-registries=registry.local/team, 'registry.local/team'",
    "--log-format=xml, 'xml'",
    "--no-such-flag, '--no-such-flag'"
  })
  void aBadFlagExitsTwoWithAMessage(String flag, String named) {
    int code = run("webhook", "--cluster-resource-namespace=kuik-system", cert, key, flag);

    assertEquals(2, code, err.toString());
    assertTrue(err.toString().contains(named), err.toString());
  }

  @Test
  void withoutTheTlsFilesItExitsTwoNamingTheFlag() {
    Assumptions.assumeTrue(System.getenv("KUIK_TLS_CERT_FILE") == null);

    assertEquals(2, run("webhook", "--cluster-resource-namespace=kuik-system", key));
    assertTrue(err.toString().contains("--tls-cert-file"), err.toString());
  }

  @Test
  void aTlsFileThatIsNotThereExitsTwoNamingIt() {
    assertEquals(
        2,
        run(
            "webhook",
            "--cluster-resource-namespace=kuik-system",
            "--tls-cert-file=" + directory.resolve("not-mounted.crt"),
            key));
    assertTrue(err.toString().contains("not-mounted.crt"), err.toString());
  }

  @Test
  void aClusterResourceNamespaceThatCannotBeANamespaceExitsTwo() {
    assertEquals(2, run("webhook", "--cluster-resource-namespace=Kuik_System", cert, key));
    assertTrue(err.toString().contains("Kuik_System"), err.toString());
  }

  @Test
  void withoutAClusterResourceNamespaceOutsideAPodItExitsTwo() {
    Assumptions.assumeFalse(
        Files.exists(ClusterResourceNamespace.SERVICE_ACCOUNT_NAMESPACE), "running inside a pod");
    Assumptions.assumeTrue(System.getenv("KUIK_CLUSTER_RESOURCE_NAMESPACE") == null);

    assertEquals(2, run("webhook", cert, key));
    assertTrue(err.toString().contains("--cluster-resource-namespace"), err.toString());
  }

  @Test
  void theDefaultsAreTheCharts() {
    WebhookRuntimeSettings settings = settings("--cluster-resource-namespace=kuik-system");

    assertEquals("kuik-system", settings.clusterResourceNamespace());
    assertEquals(8443, settings.server().address().getPort());
    assertEquals(8080, settings.healthPort());
    assertEquals(Duration.ofSeconds(2), settings.prober().probeTimeout());
    assertEquals(Duration.ofSeconds(30), settings.prober().cacheTtl());
    assertEquals(Set.of(), settings.prober().insecureRegistries());
    assertEquals(Duration.ofSeconds(5), settings.shutdownDelay());
  }

  @Test
  void everyFlagReachesTheSettings() {
    WebhookRuntimeSettings settings =
        settings(
            "--cluster-resource-namespace=shard-b",
            "--port=9443",
            "--health-port=9090",
            "--probe-timeout=750ms",
            "--probe-cache-ttl=0s",
            "--insecure-registries= registry.local:5000,,[fd00::1]:5000 ,mirror.lan",
            "--shutdown-delay=0s",
            "--log-format=text");

    assertEquals("shard-b", settings.clusterResourceNamespace());
    assertEquals(9443, settings.server().address().getPort());
    assertEquals(directory.resolve("tls.crt"), settings.server().certFile());
    assertEquals(directory.resolve("tls.key"), settings.server().keyFile());
    assertEquals(9090, settings.healthPort());
    assertEquals(Duration.ofMillis(750), settings.prober().probeTimeout());
    assertEquals(Duration.ZERO, settings.prober().cacheTtl());
    assertEquals(
        Set.of("registry.local:5000", "[fd00::1]:5000", "mirror.lan"),
        settings.prober().insecureRegistries());
    assertEquals(Duration.ZERO, settings.shutdownDelay());
  }

  @Test
  void theGatesLeaseAndBoundAreCheckedOnlyWithPullSecretFirst() {
    assertNull(
        settings(
                "--cluster-resource-namespace=kuik-system",
                "--syncer-lease=Not_A_Name",
                "--gate-max-wait=0s")
            .pullSecretFirst(),
        "off: neither is read");
    for (String[] bad :
        new String[][] {
          {"--syncer-lease=Not_A_Name", "Invalid --syncer-lease 'Not_A_Name': not an object name"},
          {"--gate-max-wait=0s", "Invalid --gate-max-wait 0s: give a positive duration"}
        }) {
      CommandLine.ParameterException thrown =
          org.junit.jupiter.api.Assertions.assertThrows(
              CommandLine.ParameterException.class,
              () ->
                  settings(
                      "--cluster-resource-namespace=kuik-system",
                      "--pull-secret-first=true",
                      bad[0]));
      assertTrue(thrown.getMessage().startsWith(bad[1]), thrown.getMessage());
    }
  }

  @Test
  void aPortIsZeroTo65535() {
    for (String flag : new String[] {"--port", "--health-port"}) {
      for (String good : new String[] {"0", "65535"}) {
        settings("--cluster-resource-namespace=kuik-system", flag + "=" + good);
      }
      for (String bad : new String[] {"-1", "65536"}) {
        CommandLine.ParameterException thrown =
            org.junit.jupiter.api.Assertions.assertThrows(
                CommandLine.ParameterException.class,
                () -> settings("--cluster-resource-namespace=kuik-system", flag + "=" + bad));
        assertEquals("Invalid " + flag + " " + bad + ": a port is 0 to 65535", thrown.getMessage());
      }
    }
  }
}
