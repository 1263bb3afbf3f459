package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.kube.webhook.WebhookRuntimeSettings;
import io.kuik.syncer.ProviderSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The one line each component logs as it starts, read whole: what an operator compares with the
 * chart's values (docs/operations.md), so every setting it names is the one in force, and a setting
 * left at its default reads as such.
 */
class StartLineTest {

  @TempDir Path directory;

  private static String syncer(String... flags) {
    CommandLine commandLine = Main.commandLine();
    List<String> args = new ArrayList<>(List.of("syncer"));
    args.addAll(List.of(flags));
    commandLine.parseArgs(args.toArray(String[]::new));
    SyncerCommand command = (SyncerCommand) commandLine.getSubcommands().get("syncer").getCommand();
    return SyncerCommand.describe(command.settings());
  }

  private String webhook(String... flags) throws IOException {
    CommandLine commandLine = Main.commandLine();
    List<String> args =
        new ArrayList<>(
            List.of(
                "webhook",
                "--tls-cert-file=" + Files.writeString(directory.resolve("tls.crt"), "certificate"),
                "--tls-key-file=" + Files.writeString(directory.resolve("tls.key"), "key")));
    args.addAll(List.of(flags));
    commandLine.parseArgs(args.toArray(String[]::new));
    WebhookRuntimeSettings settings =
        ((WebhookCommand) commandLine.getSubcommands().get("webhook").getCommand()).settings();
    return WebhookCommand.describe(settings);
  }

  @Test
  void theSyncersLineWithTheChartsDefaults() {
    assertEquals(
        "starting the secret-syncer in kuik-system: grace 15m, resync 10m, debounce 500ms, 20"
            + " writes/s (burst 50), lease kuik-secret-syncer, kuik-pull-secrets, never in "
            + String.join(", ", neverServed("kuik-system")),
        syncer("--cluster-resource-namespace=kuik-system"));
  }

  @Test
  void theSyncersLineWithEverySettingItNamesChanged() throws IOException {
    Path config =
        Files.writeString(
            directory.resolve("providers.yaml"),
            """
            apiVersion: kubelet.config.k8s.io/v1
            kind: CredentialProviderConfig
            providers:
            - name: ecr-credential-provider
              matchImages: ["*.dkr.ecr.*.amazonaws.com"]
              defaultCacheDuration: 12h
              apiVersion: credentialprovider.kubelet.k8s.io/v1
            """);

    assertEquals(
        "starting the secret-syncer in shard-b: grace 20m, resync 0s, debounce 1s, 5.5 writes/s"
            + " (burst 7), no leader election, kuik-pull-secrets and kuik-pod-gates, labelled"
            + " namespaces only, never in "
            + String.join(", ", neverServed("shard-b"))
            + ", credential providers [ecr-credential-provider] (minValidity 20m)",
        syncer(
            "--cluster-resource-namespace=shard-b",
            "--grace-period=20m",
            "--resync-period=0s",
            "--debounce=1s",
            "--api-qps=5.5",
            "--api-burst=7",
            "--leader-elect=false",
            "--release-gates=true",
            "--namespaces-by-default=false",
            "--provider-config=" + config,
            "--provider-min-validity=20m"));
  }

  /** The namespaces the line names as never served, as the command's own settings have them. */
  private static List<String> neverServed(String namespace) {
    CommandLine commandLine = Main.commandLine();
    commandLine.parseArgs("syncer", "--cluster-resource-namespace=" + namespace);
    SyncerCommand command = (SyncerCommand) commandLine.getSubcommands().get("syncer").getCommand();
    return List.copyOf(command.settings().syncer().targeting().served().neverServed());
  }

  @Test
  void theWebhooksLineWithTheChartsDefaults() throws IOException {
    assertEquals(
        "starting the pod webhook in kuik-system: HTTPS port 8443, probe timeout 2s, probe cache"
            + " 30s",
        webhook("--cluster-resource-namespace=kuik-system"));
  }

  @Test
  void theWebhooksLineWithInsecureRegistriesSortedAndPullSecretFirst() throws IOException {
    assertEquals(
        "starting the pod webhook in shard-b: HTTPS port 9443, probe timeout 750ms, probe cache"
            + " 0s, insecure registries mirror.lan,registry.local:5000, pull secret first (bound"
            + " 45s)",
        webhook(
            "--cluster-resource-namespace=shard-b",
            "--port=9443",
            "--probe-timeout=750ms",
            "--probe-cache-ttl=0s",
            "--insecure-registries=registry.local:5000,mirror.lan",
            "--pull-secret-first=true",
            "--gate-max-wait=45s"));
  }

  @Test
  void theProvidersPartIsEmptyWithoutAnyProvider() {
    assertEquals(
        "", ProviderOptions.describe(ProviderSettings.NONE.withMinValidity(Duration.ofHours(1))));
  }
}
