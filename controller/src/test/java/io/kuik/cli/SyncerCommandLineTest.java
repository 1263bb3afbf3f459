package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.kube.syncer.SyncerRuntimeSettings;
import io.kuik.syncer.SyncerSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** {@code kuik syncer}'s command line: its help, its refusals, and the settings it builds. */
class SyncerCommandLineTest {

  /** The flags the Helm chart passes (chart/templates/_helpers.tpl, kuik.syncer.args). */
  static final List<String> FLAGS =
      List.of(
          "--cluster-resource-namespace",
          "--grace-period",
          "--resync-period",
          "--resync-share",
          "--debounce",
          "--namespaces-by-default",
          "--api-qps",
          "--api-burst",
          "--max-applies-in-flight",
          "--release-gates",
          "--leader-elect",
          "--health-port",
          "--admission-policy",
          "--admission-policy-binding",
          "--pod-gates-policy",
          "--pod-gates-policy-binding",
          "--excluded-namespaces",
          "--lease-name",
          "--lease-duration",
          "--lease-renew-deadline",
          "--lease-retry-period",
          "--credential-trial-timeout",
          "--insecure-registries",
          "--log-format",
          "--log-level",
          "--provider-config",
          "--provider-bin-dir",
          "--provider-min-validity",
          "--provider-timeout",
          "--provider-concurrency");

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private final CommandLine commandLine = Main.commandLine();

  private int run(String... args) {
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    return commandLine.execute(args);
  }

  private SyncerCommand parsed(String... flags) {
    String[] args = new String[flags.length + 1];
    args[0] = "syncer";
    System.arraycopy(flags, 0, args, 1, flags.length);
    commandLine.parseArgs(args);
    return (SyncerCommand) commandLine.getSubcommands().get("syncer").getCommand();
  }

  @Test
  void helpExplainsEveryFlagWithItsEnvironmentVariable() {
    assertEquals(0, run("syncer", "--help"));

    String help = out.toString();
    for (String flag : FLAGS) {
      assertTrue(help.contains(flag), flag + " in\n" + help);
      String env = "KUIK_" + flag.substring(2).replace('-', '_').toUpperCase();
      assertTrue(help.contains("Env: " + env), env + " in\n" + help);
    }
  }

  @Test
  void theRootHelpListsTheSyncerCommand() {
    assertEquals(0, run("--help"));

    assertTrue(out.toString().contains("syncer"), out.toString());
  }

  @ParameterizedTest(name = "if {0}, expect exit 2 naming {1}")
  @CsvSource({
    "--grace-period=1h30m, '1h30m'",
    "--debounce=fast, 'fast'",
    "--resync-period=10, '10'",
    "--api-qps=many, 'many'",
    "--api-qps=0, 'Invalid --api-qps 0.0'",
    "--api-qps=-1, 'Invalid --api-qps -1.0'",
    "--api-burst=0, 'Invalid --api-burst 0'",
    "--resync-share=0, 'Invalid --resync-share 0.0'",
    "--resync-share=1.5, 'Invalid --resync-share 1.5'",
    "--max-applies-in-flight=0, 'Invalid --max-applies-in-flight 0'",
    "--max-applies-in-flight=some, 'some'",
    "--health-port=70000, 'Invalid --health-port 70000'",
    "--log-format=xml, 'xml'",
    "--leader-elect=maybe, 'maybe'",
    "--admission-policy=Not_A_Name, 'Invalid --admission-policy'",
    "--admission-policy-binding=, 'Invalid --admission-policy-binding'",
    "--no-such-flag, '--no-such-flag'"
  })
  void aBadFlagExitsTwoWithAMessage(String flag, String named) {
    int code = run("syncer", "--cluster-resource-namespace=kuik-system", flag);

    assertEquals(2, code, err.toString());
    assertTrue(err.toString().contains(named), err.toString());
    assertFalse(err.toString().contains("writeQps"), "the flag's name, not the setting's");
  }

  @Test
  void aClusterResourceNamespaceThatCannotBeANamespaceExitsTwo() {
    assertEquals(2, run("syncer", "--cluster-resource-namespace=Kuik_System"));
    assertTrue(err.toString().contains("Kuik_System"), err.toString());
  }

  @Test
  void withoutAClusterResourceNamespaceOutsideAPodItExitsTwo() {
    Assumptions.assumeFalse(
        Files.exists(ClusterResourceNamespace.SERVICE_ACCOUNT_NAMESPACE), "running inside a pod");
    Assumptions.assumeTrue(System.getenv("KUIK_CLUSTER_RESOURCE_NAMESPACE") == null);

    assertEquals(2, run("syncer"));
    assertTrue(err.toString().contains("--cluster-resource-namespace"), err.toString());
  }

  @Test
  void noCommandExitsTwo() {
    assertEquals(2, run());
    assertTrue(err.toString().contains("Missing a command"), err.toString());
  }

  @Test
  void theDefaultsAreTheSeedsAndTheCharts() {
    SyncerRuntimeSettings settings = parsed("--cluster-resource-namespace=kuik-system").settings();

    assertEquals("kuik-system", settings.syncer().clusterResourceNamespace());
    assertEquals(Duration.ofMinutes(15), settings.syncer().grace());
    assertEquals(Duration.ofMillis(500), settings.syncer().debounce());
    assertEquals(Duration.ofMinutes(10), settings.syncer().resyncPeriod());
    assertEquals("kuik-system", settings.syncer().targeting().instance());
    assertTrue(settings.syncer().targeting().namespacesByDefault());
    assertEquals(20.0, settings.syncer().writeQps());
    assertEquals(50, settings.syncer().writeBurst());
    assertEquals(8, settings.syncer().maxInFlight());
    assertTrue(settings.lease().enabled());
    assertEquals(
        java.util.List.of(
            new io.kuik.model.WriteBounds.Policy("kuik-pull-secrets", "kuik-pull-secrets")),
        settings.bounds().policies());
    assertEquals("kuik-secret-syncer", settings.lease().name());
    assertEquals("kuik-system", settings.syncer().clusterResourceNamespace());
    assertEquals(8080, settings.healthPort());
    // One default per setting: the command's are the core's own, the simulator's among them.
    assertEquals(SyncerSettings.defaults("kuik-system"), settings.syncer());
  }

  @Test
  void everyFlagReachesTheSettings() {
    SyncerRuntimeSettings settings =
        parsed(
                "--cluster-resource-namespace=shard-b",
                "--grace-period=20m",
                "--resync-period=0s",
                "--resync-share=0.25",
                "--debounce=1s",
                "--namespaces-by-default=false",
                "--api-qps=5.5",
                "--api-burst=7",
                "--max-applies-in-flight=3",
                "--leader-elect=false",
                "--health-port=9090",
                "--credential-trial-timeout=4s",
                "--insecure-registries=registry.local:5000, mirror.lan",
                "--log-format=text")
            .settings();

    assertEquals("shard-b", settings.syncer().clusterResourceNamespace());
    assertEquals(Duration.ofMinutes(20), settings.syncer().grace());
    assertEquals(Duration.ZERO, settings.syncer().resyncPeriod());
    assertEquals(Duration.ofSeconds(1), settings.syncer().debounce());
    assertEquals("shard-b", settings.syncer().targeting().instance());
    assertFalse(settings.syncer().targeting().namespacesByDefault());
    assertEquals(5.5, settings.syncer().writeQps());
    assertEquals(7, settings.syncer().writeBurst());
    assertEquals(3, settings.syncer().maxInFlight());
    assertEquals(0.25, settings.syncer().resyncShare());
    assertFalse(settings.lease().enabled());
    assertEquals(9090, settings.healthPort());
    assertEquals(Duration.ofSeconds(4), settings.trials().timeout());
    assertEquals(
        java.util.Set.of("registry.local:5000", "mirror.lan"),
        settings.trials().insecureRegistries());
  }

  @Test
  void aBadInsecureRegistryOrTrialTimeoutExitsTwoWithAMessage() {
    for (String[] bad :
        new String[][] {
          {"--insecure-registries=http://registry.local", "Invalid --insecure-registries entry"},
          {"--credential-trial-timeout=0s", "credential trial timeout must be positive"}
        }) {
      CommandLine.ParameterException thrown =
          org.junit.jupiter.api.Assertions.assertThrows(
              CommandLine.ParameterException.class,
              () -> parsed("--cluster-resource-namespace=kuik-system", bad[0]).settings());
      assertTrue(thrown.getMessage().contains(bad[1]), thrown.getMessage());
    }
  }

  @Test
  void eachBoundOfTheWritePaceIsAcceptedAndTheValueBeyondItRefused() {
    SyncerSettings edge =
        parsed(
                "--cluster-resource-namespace=kuik-system",
                "--resync-share=1",
                "--api-burst=1",
                "--max-applies-in-flight=1")
            .settings()
            .syncer();
    assertEquals(1.0, edge.resyncShare());
    assertEquals(1, edge.writeBurst());
    assertEquals(1, edge.maxInFlight());
    for (String[] bad :
        new String[][] {
          {"--resync-share=1.01", "Invalid --resync-share 1.01"},
          {"--resync-share=0", "Invalid --resync-share 0.0"},
          {"--api-burst=0", "Invalid --api-burst 0"},
          {"--max-applies-in-flight=0", "Invalid --max-applies-in-flight 0"},
          {"--api-qps=0", "Invalid --api-qps 0.0"}
        }) {
      CommandLine.ParameterException thrown =
          org.junit.jupiter.api.Assertions.assertThrows(
              CommandLine.ParameterException.class,
              () -> parsed("--cluster-resource-namespace=kuik-system", bad[0]).settings());
      assertTrue(thrown.getMessage().startsWith(bad[1]), thrown.getMessage());
    }
  }

  @Test
  void aHealthPortIsZeroTo65535() {
    assertEquals(
        0,
        parsed("--cluster-resource-namespace=kuik-system", "--health-port=0")
            .settings()
            .healthPort());
    assertEquals(
        65535,
        parsed("--cluster-resource-namespace=kuik-system", "--health-port=65535")
            .settings()
            .healthPort());
    for (String bad : new String[] {"-1", "65536"}) {
      CommandLine.ParameterException thrown =
          org.junit.jupiter.api.Assertions.assertThrows(
              CommandLine.ParameterException.class,
              () ->
                  parsed("--cluster-resource-namespace=kuik-system", "--health-port=" + bad)
                      .settings());
      assertEquals("Invalid --health-port " + bad + ": a port is 0 to 65535", thrown.getMessage());
    }
  }

  @Test
  void oneProviderRunAtATimeIsAcceptedAndNoneRefused() {
    assertEquals(
        1,
        parsed("--cluster-resource-namespace=kuik-system", "--provider-concurrency=1")
            .settings()
            .plugins()
            .concurrency());
    CommandLine.ParameterException thrown =
        org.junit.jupiter.api.Assertions.assertThrows(
            CommandLine.ParameterException.class,
            () ->
                parsed("--cluster-resource-namespace=kuik-system", "--provider-concurrency=0")
                    .settings());
    assertTrue(
        thrown.getMessage().startsWith("Invalid --provider-concurrency"), thrown::getMessage);
  }

  @Test
  void mainsExecuteReturnsTheCommandsExitCode() {
    java.io.PrintStream stderr = System.err;
    System.setErr(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
    try {
      assertEquals(2, Main.execute("syncer", "--no-such-flag"));
    } finally {
      System.setErr(stderr);
    }
  }
}
