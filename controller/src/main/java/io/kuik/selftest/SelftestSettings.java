package io.kuik.selftest;

import java.net.URI;
import java.util.Objects;

/**
 * What {@code kuik selftest} checks: which release, where, and the optional pod check.
 *
 * @param release the Helm release whose objects these must be ({@code meta.helm.sh/release-name})
 * @param namespace the release's namespace, kuik's install namespace
 * @param fullname the prefix of the release's object names, the release name unless the chart's
 *     {@code fullnameOverride} says otherwise
 * @param syncerReadyz the syncer's {@code /readyz} through its Service, or null not to ask
 * @param webhookReadyz the webhook's {@code /readyz} through its Service, or null not to ask
 * @param pod the dry-run pod to create, or null to skip that check
 */
public record SelftestSettings(
    String release,
    String namespace,
    String fullname,
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

  public SelftestSettings {
    Objects.requireNonNull(release, "release");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(fullname, "fullname");
  }

  /** The chart's ValidatingAdmissionPolicy and its binding: {@code <fullname>-pull-secrets}. */
  public String policyName() {
    return fullname + "-pull-secrets";
  }

  public String syncerDeployment() {
    return fullname + "-secret-syncer";
  }

  public String webhookDeployment() {
    return fullname + "-webhook";
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
