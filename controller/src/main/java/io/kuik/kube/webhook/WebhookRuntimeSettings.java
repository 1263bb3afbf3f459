package io.kuik.kube.webhook;

import io.kuik.webhook.ProberSettings;
import io.kuik.webhook.WebhookServer;
import java.time.Duration;
import java.util.Objects;

/**
 * Everything the production webhook process needs.
 *
 * @param clusterResourceNamespace where the secretRef Secrets live: the only namespace whose
 *     Secrets the webhook reads
 * @param server the HTTPS endpoint: address, PEM files, limits
 * @param healthPort port of /healthz, /readyz and /metrics; zero picks a free one
 * @param prober how registries are probed
 * @param shutdownDelay after SIGTERM, how long admissions are still answered while /readyz fails,
 *     so that the Service stops sending before the server closes; zero closes at once
 */
public record WebhookRuntimeSettings(
    String clusterResourceNamespace,
    WebhookServer.Settings server,
    int healthPort,
    ProberSettings prober,
    Duration shutdownDelay) {

  public WebhookRuntimeSettings {
    Objects.requireNonNull(clusterResourceNamespace, "clusterResourceNamespace");
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(prober, "prober");
    Objects.requireNonNull(shutdownDelay, "shutdownDelay");
    if (healthPort < 0 || healthPort > 65535) {
      throw new IllegalArgumentException("the health port must be 0 to 65535, got " + healthPort);
    }
    if (shutdownDelay.isNegative()) {
      throw new IllegalArgumentException("the shutdown delay must not be negative");
    }
  }
}
