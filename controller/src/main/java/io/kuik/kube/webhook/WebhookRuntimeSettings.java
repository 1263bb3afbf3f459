package io.kuik.kube.webhook;

import io.kuik.model.ServedNamespaces;
import io.kuik.model.WriteBounds;
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
 * @param pullSecretFirst gate the pods given a pull-secret reference and bound the gate; null: off
 * @param served the namespaces kuik serves: a pod elsewhere is admitted as it came
 */
public record WebhookRuntimeSettings(
    String clusterResourceNamespace,
    WebhookServer.Settings server,
    int healthPort,
    ProberSettings prober,
    Duration shutdownDelay,
    PullSecretFirst pullSecretFirst,
    ServedNamespaces served) {

  /**
   * Pull secret first, the webhook's part (docs/decisions/0052-pull-secret-first.md).
   *
   * @param lease the syncer's leader-election Lease in the cluster resource namespace: pods are
   *     gated only while it is fresh
   * @param maxWait a pod still gated this long after its creation is released anyway
   * @param podGates the admission policy that bounds the webhook's pod patches, and its binding: no
   *     pod is gated or patched while either is missing
   */
  public record PullSecretFirst(String lease, Duration maxWait, WriteBounds.Policy podGates) {
    public PullSecretFirst {
      Objects.requireNonNull(lease, "lease");
      Objects.requireNonNull(maxWait, "maxWait");
      Objects.requireNonNull(podGates, "podGates");
      if (maxWait.isNegative() || maxWait.isZero()) {
        throw new IllegalArgumentException("the gate's bound must be positive, got " + maxWait);
      }
    }
  }

  /** Without pull secret first, serving every namespace but kube-system and its own. */
  public WebhookRuntimeSettings(
      String clusterResourceNamespace,
      WebhookServer.Settings server,
      int healthPort,
      ProberSettings prober,
      Duration shutdownDelay) {
    this(
        clusterResourceNamespace,
        server,
        healthPort,
        prober,
        shutdownDelay,
        null,
        ServedNamespaces.allBut(clusterResourceNamespace));
  }

  public WebhookRuntimeSettings {
    Objects.requireNonNull(clusterResourceNamespace, "clusterResourceNamespace");
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(prober, "prober");
    Objects.requireNonNull(shutdownDelay, "shutdownDelay");
    Objects.requireNonNull(served, "served");
    if (healthPort < 0 || healthPort > 65535) {
      throw new IllegalArgumentException("the health port must be 0 to 65535, got " + healthPort);
    }
    if (shutdownDelay.isNegative()) {
      throw new IllegalArgumentException("the shutdown delay must not be negative");
    }
  }
}
