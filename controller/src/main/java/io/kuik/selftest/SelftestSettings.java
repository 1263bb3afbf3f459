package io.kuik.selftest;

import java.net.URI;
import java.util.Objects;

/**
 * What {@code kuik selftest} checks: which release, where, and the optional pod check.
 *
 * @param release the Helm release whose objects these must be ({@code meta.helm.sh/release-name})
 * @param namespace the release's namespace, kuik's install namespace
 * @param names the names of the release's objects it checks, as the chart tells them
 * @param syncerReadyz the syncer's {@code /readyz} through its Service, or null not to ask
 * @param webhookReadyz the webhook's {@code /readyz} through its Service, or null not to ask
 * @param pod the dry-run pod to create, or null to skip that check
 */
public record SelftestSettings(
    String release,
    String namespace,
    Names names,
    URI syncerReadyz,
    URI webhookReadyz,
    PodCheck pod) {

  /** The name under a reserved prefix that the selftest asks to create, and must be refused. */
  public static final String RESERVED_PROBE_NAME = "kuik-inject-selftest";

  /** The dry-run pod: an image that some routing resource should route in {@code namespace}. */
  public record PodCheck(String namespace, String image) {
    public PodCheck {
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(image, "image");
    }
  }

  /**
   * The release's objects the selftest reads: the chart tells each name (from the helper that names
   * the object, chart/templates/_helpers.tpl); run by hand, {@link #of} gives the chart's names for
   * a {@code fullname}.
   *
   * @param policy the ValidatingAdmissionPolicy that bounds the syncer's Secret writes
   * @param policyBinding its binding
   * @param syncerDeployment the syncer's Deployment
   * @param webhookDeployment the webhook's Deployment
   */
  public record Names(
      String policy, String policyBinding, String syncerDeployment, String webhookDeployment) {
    public Names {
      Objects.requireNonNull(policy, "policy");
      Objects.requireNonNull(policyBinding, "policyBinding");
      Objects.requireNonNull(syncerDeployment, "syncerDeployment");
      Objects.requireNonNull(webhookDeployment, "webhookDeployment");
    }

    /** The chart's names for objects named after {@code fullname} (the release's by default). */
    public static Names of(String fullname) {
      return new Names(
          fullname + "-pull-secrets",
          fullname + "-pull-secrets",
          fullname + "-secret-syncer",
          fullname + "-webhook");
    }
  }

  public SelftestSettings {
    Objects.requireNonNull(release, "release");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(names, "names");
  }

  /** The ValidatingAdmissionPolicy that bounds the syncer's Secret writes. */
  public String policyName() {
    return names.policy();
  }

  /** Its binding. */
  public String policyBindingName() {
    return names.policyBinding();
  }

  public String syncerDeployment() {
    return names.syncerDeployment();
  }

  public String webhookDeployment() {
    return names.webhookDeployment();
  }

  /**
   * {@code /readyz} of a component through the chart's metrics Service {@code
   * <deployment>-metrics}, on the chart's default health port.
   */
  public static URI serviceReadyz(String deployment, String namespace, int port) {
    return URI.create(
        "http://" + deployment + "-metrics." + namespace + ".svc:" + port + "/readyz");
  }
}
