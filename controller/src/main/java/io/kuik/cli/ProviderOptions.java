package io.kuik.cli;

import io.kuik.kube.syncer.ProviderPlugins;
import io.kuik.kube.syncer.SyncerRuntimeSettings;
import io.kuik.model.CredentialProvider;
import io.kuik.model.CredentialProviderConfig;
import io.kuik.model.Durations;
import io.kuik.syncer.ProviderSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The flags of {@code kuik syncer} for credential providers
 * (docs/behaviour.md#provider-credentials): the kubelet's {@code CredentialProviderConfig} file,
 * where the plugins are, and the validity bound. The chart passes them all from its {@code
 * providers} and {@code providerCredentials} values.
 */
final class ProviderOptions {

  @Option(
      names = "--provider-config",
      paramLabel = "<file>",
      defaultValue = "${env:KUIK_PROVIDER_CONFIG:-}",
      description = {
        "A kubelet CredentialProviderConfig (kubelet.config.k8s.io/v1, YAML or JSON): the"
            + " credential provider plugins an auth.provider names. Without it, provider entries"
            + " are left out, with an Event.",
        "Env: KUIK_PROVIDER_CONFIG. Default: none."
      })
  String config;

  @Option(
      names = "--provider-bin-dir",
      paramLabel = "<dir>",
      defaultValue =
          "${env:KUIK_PROVIDER_BIN_DIR:-" + SyncerRuntimeSettings.Plugins.DEFAULT_DIRECTORY + "}",
      description = {
        "Where each provider's executable is, named as the provider (the kubelet's"
            + " --image-credential-provider-bin-dir).",
        "Env: KUIK_PROVIDER_BIN_DIR. Default: ${DEFAULT-VALUE}."
      })
  String binDir;

  @Option(
      names = "--provider-min-validity",
      paramLabel = "<duration>",
      converter = DurationConverter.class,
      defaultValue = "${env:KUIK_PROVIDER_MIN_VALIDITY:-15m}",
      description = {
        "No kuik-inject-* Secret holds a provider credential with less than this left: a"
            + " credential is minted again at half its validity, and when the plugin fails the last"
            + " one serves until this much (and one minute to write) is left, then leaves.",
        "Env: KUIK_PROVIDER_MIN_VALIDITY. Default: ${DEFAULT-VALUE}."
      })
  Duration minValidity;

  @Option(
      names = "--provider-timeout",
      paramLabel = "<duration>",
      converter = DurationConverter.class,
      defaultValue = "${env:KUIK_PROVIDER_TIMEOUT:-1m}",
      description = {
        "A plugin still running after this is killed, with every process it started (the"
            + " kubelet's own limit).",
        "Env: KUIK_PROVIDER_TIMEOUT. Default: ${DEFAULT-VALUE}."
      })
  Duration timeout;

  @Option(
      names = "--provider-concurrency",
      paramLabel = "<runs>",
      defaultValue =
          "${env:KUIK_PROVIDER_CONCURRENCY:-" + ProviderPlugins.DEFAULT_CONCURRENCY + "}",
      description = {
        "Plugins run at once, at most; the others wait their turn.",
        "Env: KUIK_PROVIDER_CONCURRENCY. Default: ${DEFAULT-VALUE}."
      })
  int concurrency;

  /** The providers and the bound, read from the config file; refused with the file's problems. */
  ProviderSettings settings(CommandSpec spec, SyncerCommand.MountedFiles files) {
    Map<String, CredentialProvider> providers = Map.of();
    if (config != null && !config.isBlank()) {
      String text;
      try {
        text = files.read(Path.of(config));
      } catch (IOException unreadable) {
        throw new ParameterException(
            spec.commandLine(), "Cannot read --provider-config " + config + ": " + unreadable);
      }
      try {
        providers = CredentialProviderConfig.parse(text, config);
      } catch (IllegalArgumentException invalid) {
        throw new ParameterException(
            spec.commandLine(), "Invalid --provider-config " + invalid.getMessage());
      }
    }
    try {
      return ProviderSettings.of(providers).withMinValidity(minValidity);
    } catch (IllegalArgumentException invalid) {
      throw new ParameterException(spec.commandLine(), "Invalid setting: " + invalid.getMessage());
    }
  }

  /** How the plugins run. */
  SyncerRuntimeSettings.Plugins plugins(CommandSpec spec) {
    if (concurrency < 1 || timeout.isZero()) {
      throw new ParameterException(
          spec.commandLine(),
          "Invalid --provider-concurrency or --provider-timeout: give at least 1 run and a"
              + " positive duration, e.g. 2 and 1m");
    }
    return new SyncerRuntimeSettings.Plugins(
        Path.of(binDir), timeout, concurrency, ProviderPlugins.DEFAULT_MAX_OUTPUT);
  }

  /**
   * For the start's log line: the providers and the bound, never an environment value; empty
   * without any provider.
   */
  static String describe(ProviderSettings settings) {
    if (settings.providers().isEmpty()) {
      return "";
    }
    return ", credential providers "
        + settings.providers().keySet()
        + " (minValidity "
        + Durations.text(settings.minValidity())
        + ")";
  }
}
