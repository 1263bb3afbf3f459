package io.kuik.explain;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kuik.explain.Explanation.ContainerExplanation;
import io.kuik.explain.Explanation.Offer;
import io.kuik.ports.RegistryProber;
import io.kuik.syncer.SyncerSettings;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code kuik explain}, live and read-only: reads a pod or a Deployment and what it depends on
 * ({@link ClusterReader}), then explains it with the production webhook, syncer and credential
 * matching ({@link Explainer}).
 */
public final class Explain {

  /** The pod or Deployment itself could not be read: there is nothing to explain. */
  public static final class NothingToExplain extends Exception {
    private static final long serialVersionUID = 1L;

    NothingToExplain(String message) {
      super(message);
    }
  }

  private final KubernetesClient client;
  private final SyncerSettings settings;
  private final Explainer explainer;

  /**
   * @param settings the syncer's: its cluster resource namespace and targeting
   * @param prober the production prober to ask the registries, or {@code null} not to probe
   */
  public Explain(KubernetesClient client, SyncerSettings settings, RegistryProber prober) {
    this.client = client;
    this.settings = settings;
    this.explainer = new Explainer(settings, prober == null ? Explainer.NOT_PROBING : prober);
  }

  public Explanation pod(String namespace, String name) throws NothingToExplain {
    return explainer.explain(
        new ClusterReader(client, settings.clusterResourceNamespace()).pod(namespace, name));
  }

  public Explanation deployment(String namespace, String name) throws NothingToExplain {
    return explainer.explain(
        new ClusterReader(client, settings.clusterResourceNamespace()).deployment(namespace, name));
  }

  /** The explanation as a person reads it. */
  public static String text(Explanation e) {
    StringBuilder out = new StringBuilder();
    out.append(e.object()).append('\n');
    out.append("  namespace labels: ")
        .append(e.namespaceLabels() == null ? "(not readable)" : labels(e.namespaceLabels()))
        .append('\n');
    out.append("  served by this syncer instance: ")
        .append(
            e.servedByThisInstance() == null ? "unknown" : e.servedByThisInstance() ? "yes" : "no")
        .append('\n');
    for (ContainerExplanation c : e.containers()) {
      out.append("\ncontainer ").append(c.name()).append('\n');
      line(out, "image", c.image());
      line(out, "original image", c.original() == null ? "(not rewritten by kuik)" : c.original());
      if (c.rewrittenBy() != null) {
        line(out, "rewritten by", c.rewrittenBy() + (c.entry() == null ? "" : " " + c.entry()));
      }
      if (c.reason() != null) {
        line(out, "why", c.reason());
      }
      line(
          out,
          "webhook now",
          c.webhookNow().chosen() == null
              ? c.webhookNow().reason()
              : c.webhookNow().chosen() + " (" + c.webhookNow().reason() + ")");
      int n = 0;
      for (String candidate : c.webhookNow().candidates()) {
        out.append("      ").append(++n).append(". ").append(candidate).append('\n');
      }
      line(
          out,
          "pull secret",
          c.pullSecret() == null
              ? "none from kuik"
              : c.pullSecret()
                  + (c.referenced() ? " (referenced by the pod)" : " (NOT referenced by the pod)"));
      if (c.minted() != null) {
        line(out, "minted", c.minted());
      }
      if (c.credential() != null) {
        line(out, "credential", c.credential());
      }
      line(out, "kubelet offers", c.offered().isEmpty() ? "nothing: an anonymous pull" : "");
      n = 0;
      for (Offer offer : c.offered()) {
        out.append("      ")
            .append(++n)
            .append(". ")
            .append(offer.secret())
            .append(" key ")
            .append(offer.key())
            .append(" (")
            .append(offer.content());
        if (offer.from() != null) {
          out.append("; from ").append(offer.from());
        }
        if (!offer.forThisImage()) {
          out.append("; written for ").append(offer.writtenFor()).append(", not for this image");
        }
        out.append(")\n");
      }
    }
    if (!e.warnings().isEmpty()) {
      out.append("\nwarnings\n");
      e.warnings().forEach(w -> out.append("  ").append(w).append('\n'));
    }
    if (!e.unreadable().isEmpty()) {
      out.append("\nnot readable with your credentials\n");
      e.unreadable().forEach(w -> out.append("  ").append(w).append('\n'));
    }
    return out.toString();
  }

  private static void line(StringBuilder out, String label, String value) {
    out.append("  ").append(label).append(':');
    if (!value.isEmpty()) {
      out.append(" ".repeat(Math.max(1, 16 - label.length()))).append(value);
    }
    out.append('\n');
  }

  private static String labels(Map<String, String> labels) {
    if (labels.isEmpty()) {
      return "(none)";
    }
    StringBuilder out = new StringBuilder();
    new TreeMap<>(labels)
        .forEach(
            (k, v) -> out.append(out.length() == 0 ? "" : ", ").append(k).append('=').append(v));
    return out.toString();
  }
}
