package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The Helm chart's syncer command line ({@code kuik.syncer.args} in chart/templates/_helpers.tpl)
 * names exactly the CLI's flags, and with the chart's default values it parses.
 */
class ChartSyncerArgsTest {

  private static final String HELPER = "kuik.syncer.args";

  /**
   * Flags the chart leaves at their defaults, each a choice: client-go's leader-election timings
   * suit every cluster, and syncer.extraArgs sets them where they do not.
   */
  private static final Set<String> NOT_PASSED =
      Set.of("--lease-duration", "--lease-renew-deadline", "--lease-retry-period");

  @Test
  void theChartPassesEveryFlagOfTheSyncerButTheListedOnesAndNoOther() throws IOException {
    Set<String> passed = ChartHelperArgs.flags(HELPER);

    Set<String> known = new TreeSet<>();
    for (OptionSpec option : syncerCommand().getCommandSpec().options()) {
      if (!option.hidden() && !option.usageHelp() && !option.versionHelp()) {
        known.add(option.longestName());
      }
    }
    Set<String> expected = new TreeSet<>(known);
    expected.removeAll(NOT_PASSED);
    assertEquals(expected, passed);
    assertEquals(new TreeSet<>(SyncerCommandLineTest.FLAGS), known);
  }

  @Test
  void theChartsDefaultValuesParse(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws IOException {
    List<String> args = new java.util.ArrayList<>(ChartHelperArgs.rendered(HELPER));
    assertEquals("syncer", args.get(0));
    // The chart mounts its ConfigMap there: with no providers, a config without any.
    String path = "--provider-config=/kuik/providers/providers.yaml";
    assertTrue(args.contains(path), args::toString);
    java.nio.file.Path config = dir.resolve("providers.yaml");
    java.nio.file.Files.writeString(
        config,
        "apiVersion: kubelet.config.k8s.io/v1\nkind: CredentialProviderConfig\nproviders: []\n");
    args.set(args.indexOf(path), "--provider-config=" + config);

    CommandLine commandLine = Main.commandLine();
    commandLine.parseArgs(args.toArray(String[]::new));
    SyncerCommand syncer = (SyncerCommand) commandLine.getSubcommands().get("syncer").getCommand();
    assertEquals("kuik-system", syncer.settings().syncer().clusterResourceNamespace());
    // The chart's values are the core's defaults, as kuik syncer's own are: one default each.
    assertEquals(io.kuik.syncer.SyncerSettings.defaults("kuik-system"), syncer.settings().syncer());
    assertEquals(
        new io.kuik.model.WriteBounds.Policy("kuik-pull-secrets", "kuik-pull-secrets"),
        syncer.settings().bounds().secrets());
  }

  private static CommandLine syncerCommand() {
    return Main.commandLine().getSubcommands().get("syncer");
  }
}
