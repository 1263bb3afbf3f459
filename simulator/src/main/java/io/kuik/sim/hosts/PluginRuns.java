package io.kuik.sim.hosts;

import io.kuik.kube.syncer.ProviderPlugins;
import io.kuik.model.MintResult;
import io.kuik.model.ProviderExchange;
import io.kuik.sim.world.registry.CloudProvider;
import io.kuik.sim.world.registry.Registries;
import io.kuik.syncer.Effect;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * A credential provider plugin's run in the simulated world: the cloud provider named as the plugin
 * answers the production request ({@link ProviderExchange#request}), and what it prints is read as
 * the production runner reads it, with the production timeout. Only the process is simulated.
 */
final class PluginRuns {

  /** What the core hears, and how long after the mint it hears it. */
  record Answer(Duration after, MintResult result) {}

  /** How long finding no plugin takes. */
  static final Duration NOT_FOUND_AFTER = Duration.ofMillis(10);

  private PluginRuns() {}

  static Answer run(Registries registries, Effect.MintCredential mint) {
    Optional<CloudProvider> provider =
        registries == null ? Optional.empty() : registries.findProvider(mint.provider().name());
    if (provider.isEmpty()) {
      return new Answer(
          NOT_FOUND_AFTER,
          new MintResult.Failed(
              MintResult.Failure.NOT_FOUND, "no executable plugin " + mint.provider().name()));
    }
    String request =
        new String(
            ProviderExchange.request(mint.provider().apiVersion(), mint.image()),
            StandardCharsets.UTF_8);
    CloudProvider.Run run = provider.get().exec(request);
    Duration timeout = ProviderPlugins.DEFAULT_TIMEOUT;
    if (run.took().compareTo(timeout) > 0) {
      return new Answer(
          timeout,
          new MintResult.Failed(
              MintResult.Failure.TIMED_OUT, "the plugin did not answer within 1m: killed"));
    }
    if (run.exitStatus() != 0) {
      return new Answer(
          run.took(),
          new MintResult.Failed(
              MintResult.Failure.EXITED,
              "the plugin exited with status "
                  + run.exitStatus()
                  + " (what it wrote to stderr is not shown: it may hold a secret)"));
    }
    try {
      return new Answer(
          run.took(),
          new MintResult.Minted(
              ProviderExchange.response(
                  run.stdout().getBytes(StandardCharsets.UTF_8), mint.provider().apiVersion())));
    } catch (ProviderExchange.InvalidResponse invalid) {
      return new Answer(
          run.took(), new MintResult.Failed(MintResult.Failure.INVALID, invalid.getMessage()));
    }
  }
}
