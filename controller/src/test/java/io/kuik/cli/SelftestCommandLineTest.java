package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.selftest.SelftestSettings;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * {@code kuik selftest}'s command line: the chart's object names from the release or its fullname,
 * each one overridable, and where each component's {@code /readyz} is asked.
 */
class SelftestCommandLineTest {

  private static SelftestSettings settings(String... flags) {
    CommandLine commandLine = Main.commandLine();
    List<String> args = new ArrayList<>(List.of("selftest"));
    args.addAll(List.of(flags));
    commandLine.parseArgs(args.toArray(String[]::new));
    return ((SelftestCommand) commandLine.getSubcommands().get("selftest").getCommand()).settings();
  }

  @Test
  void theChartsNamesFollowTheReleaseAndEachReadyzIsItsMetricsService() {
    SelftestSettings settings = settings("--release=acme", "--cluster-resource-namespace=ops");

    assertEquals(SelftestSettings.Names.of("acme"), settings.names());
    assertEquals(
        URI.create("http://acme-secret-syncer-metrics.ops.svc:8080/readyz"),
        settings.syncerReadyz());
    assertEquals(
        URI.create(
            "http://" + settings.names().webhookDeployment() + "-metrics.ops.svc:8080/readyz"),
        settings.webhookReadyz());
  }

  @Test
  void aFullnameReplacesTheReleaseInEveryName() {
    assertEquals(
        SelftestSettings.Names.of("kuik-prod"),
        settings("--release=acme", "--fullname= kuik-prod ").names());
  }

  @Test
  void eachNameCanBeGivenAndIsTakenStripped() {
    SelftestSettings.Names names =
        settings(
                "--admission-policy= my-policy ",
                "--admission-policy-binding=my-binding",
                "--syncer-deployment=my-syncer",
                "--webhook-deployment=my-webhook")
            .names();

    assertEquals(
        new SelftestSettings.Names("my-policy", "my-binding", "my-syncer", "my-webhook"), names);
  }

  @Test
  void aReadyzURLIsTakenAsGivenOrLeftOutWithNone() {
    SelftestSettings settings =
        settings("--syncer-readyz= https://syncer.example:9443/readyz ", "--webhook-readyz=none");

    assertEquals(URI.create("https://syncer.example:9443/readyz"), settings.syncerReadyz());
    assertNull(settings.webhookReadyz());
  }

  @ParameterizedTest(name = "{0} is refused with: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "--syncer-deployment=Not_A_Name | Invalid --syncer-deployment 'Not_A_Name': not an object",
        "--fullname=Not_A_Label | Invalid --fullname 'Not_A_Label'",
        "--syncer-readyz=ftp://syncer.example/readyz | Invalid --syncer-readyz",
        "--webhook-readyz=http:/readyz | Invalid --webhook-readyz"
      })
  void aBadNameOrURLIsRefused(String flag, String message) {
    CommandLine.ParameterException thrown =
        assertThrows(CommandLine.ParameterException.class, () -> settings(flag));

    assertTrue(thrown.getMessage().startsWith(message), thrown.getMessage());
  }
}
