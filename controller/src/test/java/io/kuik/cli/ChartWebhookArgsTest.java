package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.kube.webhook.WebhookRuntimeSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The Helm chart's webhook command line ({@code kuik.webhook.args} in chart/templates/_helpers.tpl)
 * names only flags the CLI knows, and with the chart's default values it parses to the chart's
 * settings.
 */
class ChartWebhookArgsTest {

  private static final String HELPER = "kuik.webhook.args";

  /** Flags the chart leaves at their defaults: each one a choice, not an oversight. */
  private static final Set<String> NOT_PASSED = Set.of();

  @Test
  void theChartPassesOnlyFlagsTheWebhookKnowsAndLeavesOutOnlyTheListedOnes() throws IOException {
    Set<String> passed = ChartHelperArgs.flags(HELPER);

    Set<String> known = new TreeSet<>();
    for (OptionSpec option : webhookCommand().getCommandSpec().options()) {
      if (!option.hidden() && !option.usageHelp() && !option.versionHelp()) {
        known.add(option.longestName());
      }
    }
    Set<String> unknown = new TreeSet<>(passed);
    unknown.removeAll(known);
    assertEquals(Set.of(), unknown, "flags the chart passes and the CLI does not know");
    Set<String> leftOut = new TreeSet<>(known);
    leftOut.removeAll(passed);
    assertEquals(new TreeSet<>(NOT_PASSED), leftOut);
    assertEquals(new TreeSet<>(WebhookCommandLineTest.FLAGS), known);
  }

  @Test
  void theChartsDefaultValuesParse(@TempDir Path tls) throws IOException {
    List<String> args = ChartHelperArgs.rendered(HELPER);
    assertEquals("webhook", args.get(0));

    CommandLine commandLine = Main.commandLine();
    commandLine.parseArgs(args.toArray(String[]::new));
    WebhookCommand webhook =
        (WebhookCommand) commandLine.getSubcommands().get("webhook").getCommand();
    assertEquals("kuik-system", webhook.clusterResourceNamespace);
    assertEquals(8443, webhook.port);
    assertEquals(8080, webhook.healthPort);
    assertEquals(Path.of("/tls/tls.crt"), webhook.tlsCertFile);
    assertEquals(Path.of("/tls/tls.key"), webhook.tlsKeyFile);
    assertEquals(Duration.ofSeconds(2), webhook.probeTimeout);
    assertEquals(Duration.ofSeconds(30), webhook.probeCacheTtl);
    assertEquals("", webhook.insecureRegistries);
    assertEquals(Duration.ofSeconds(5), webhook.shutdownDelay);
    assertEquals(LogFormat.json, webhook.logFormat);

    // Where the Deployment mounts the TLS Secret, files of this test: the settings then build.
    webhook.tlsCertFile = Files.writeString(tls.resolve("tls.crt"), "certificate");
    webhook.tlsKeyFile = Files.writeString(tls.resolve("tls.key"), "key");
    WebhookRuntimeSettings settings = webhook.settings();
    assertEquals("kuik-system", settings.clusterResourceNamespace());
    assertEquals(Duration.ofSeconds(2), settings.prober().probeTimeout());
  }

  private static CommandLine webhookCommand() {
    return Main.commandLine().getSubcommands().get("webhook");
  }
}
