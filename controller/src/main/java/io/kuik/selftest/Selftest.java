package io.kuik.selftest;

import static io.kuik.selftest.Words.cannotRead;
import static io.kuik.selftest.Words.quote;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.kuik.selftest.SelftestCluster.DryRun;
import io.kuik.selftest.SelftestCluster.Read;
import io.kuik.selftest.SelftestCluster.Readyz;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code kuik selftest}: proof, on the user's own cluster, that a release is installed and works,
 * with read requests and dry-run creates only, so that it leaves nothing behind. Each check gives
 * one row; see {@link #run} for the list. The checks ask the cluster through {@link
 * SelftestCluster}, so the same code runs against a real API server, fabric8's mock and the
 * simulator.
 */
public final class Selftest {

  public static final String POLICY = "policy";
  public static final String POLICY_BINDING = "policy-binding";
  public static final String RESERVED_NAMES = "reserved-names";
  public static final String SYNCER_READY = "syncer-ready";
  public static final String WEBHOOK_READY = "webhook-ready";
  public static final String POD_REWRITTEN = "pod-rewritten";
  public static final String CREDENTIALS = "credentials";

  /** Helm's annotations on every object it installs (pkg/action, setMetadataVisitor). */
  static final String RELEASE_NAME = "meta.helm.sh/release-name";

  static final String RELEASE_NAMESPACE = "meta.helm.sh/release-namespace";

  /** The chart's own label naming the release, for objects applied from {@code helm template}. */
  static final String INSTANCE_LABEL = "app.kubernetes.io/instance";

  private final SelftestCluster cluster;
  private final SelftestSettings settings;

  private Selftest(SelftestCluster cluster, SelftestSettings settings) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /**
   * Runs every check, in this order: the admission policy and its binding exist and belong to the
   * release; the policy refuses this identity a dry-run create under a reserved name; the syncer
   * and the webhook have available replicas (and answer {@code /readyz} through their Services when
   * those can be reached); with {@link SelftestSettings#pod()}, a dry-run pod comes back rewritten
   * and referencing its Secret; no routing resource reports a credential its registry refused.
   */
  public static SelftestReport run(SelftestCluster cluster, SelftestSettings settings) {
    Selftest selftest = new Selftest(cluster, settings);
    List<CheckResult> rows = new ArrayList<>();
    rows.add(selftest.policy());
    rows.add(selftest.binding());
    rows.add(selftest.reservedNames());
    rows.add(selftest.ready(SYNCER_READY, settings.syncerDeployment(), settings.syncerReadyz()));
    rows.add(selftest.ready(WEBHOOK_READY, settings.webhookDeployment(), settings.webhookReadyz()));
    rows.add(new PodRewrittenCheck(cluster, settings).run());
    rows.add(new CredentialsCheck(cluster).run());
    return new SelftestReport(rows);
  }

  // ---- the admission policy ----------------------------------------------------------------

  private CheckResult policy() {
    String name = settings.policyName();
    Read<ValidatingAdmissionPolicy> read = cluster.admissionPolicy(name);
    if (read.isMissing()) {
      return CheckResult.fail(
          POLICY,
          "no ValidatingAdmissionPolicy "
              + name
              + ": without it the syncer may write any Secret in any namespace, and anyone may"
              + " create kuik-inject-* Secrets. helm upgrade installs it again (the API server"
              + " must serve admissionregistration.k8s.io/v1, Kubernetes 1.30 or later)");
    }
    if (!read.isFound()) {
      return CheckResult.fail(POLICY, cannotRead("ValidatingAdmissionPolicy " + name, read));
    }
    ValidatingAdmissionPolicy policy = read.object();
    String stranger = notOurs(policy.getMetadata());
    if (stranger != null) {
      return CheckResult.fail(POLICY, "ValidatingAdmissionPolicy " + name + " " + stranger);
    }
    String failurePolicy = policy.getSpec() == null ? null : policy.getSpec().getFailurePolicy();
    if (failurePolicy != null && !failurePolicy.equals("Fail")) {
      return CheckResult.fail(
          POLICY,
          "ValidatingAdmissionPolicy "
              + name
              + " has failurePolicy "
              + failurePolicy
              + ": a Secret write the API server cannot judge would go through; the chart"
              + " sets Fail");
    }
    return CheckResult.pass(
        POLICY,
        "ValidatingAdmissionPolicy " + name + " of release " + releaseText() + " is installed");
  }

  private CheckResult binding() {
    String name = settings.policyBindingName();
    String policy = settings.policyName();
    Read<ValidatingAdmissionPolicyBinding> read = cluster.admissionPolicyBinding(name);
    if (read.isMissing()) {
      return CheckResult.fail(
          POLICY_BINDING,
          "no ValidatingAdmissionPolicyBinding "
              + name
              + ": the policy is installed but enforces nothing. helm upgrade installs it again");
    }
    if (!read.isFound()) {
      return CheckResult.fail(
          POLICY_BINDING, cannotRead("ValidatingAdmissionPolicyBinding " + name, read));
    }
    String stranger = notOurs(read.object().getMetadata());
    if (stranger != null) {
      return CheckResult.fail(
          POLICY_BINDING, "ValidatingAdmissionPolicyBinding " + name + " " + stranger);
    }
    var spec = read.object().getSpec();
    String policyName = spec == null ? null : spec.getPolicyName();
    if (!policy.equals(policyName)) {
      return CheckResult.fail(
          POLICY_BINDING,
          "ValidatingAdmissionPolicyBinding "
              + name
              + " binds policy "
              + policyName
              + ", not "
              + policy);
    }
    List<String> actions = spec.getValidationActions();
    if (actions == null || !actions.contains("Deny")) {
      return CheckResult.fail(
          POLICY_BINDING,
          "ValidatingAdmissionPolicyBinding "
              + name
              + " has validationActions "
              + actions
              + ": without Deny the policy refuses nothing");
    }
    return CheckResult.pass(
        POLICY_BINDING,
        "ValidatingAdmissionPolicyBinding " + name + " binds " + policy + " with Deny");
  }

  /**
   * Whether the object is this release's: Helm's release annotations when it has them, else the
   * chart's instance label (objects applied from {@code helm template} carry no annotation). Null
   * when it is ours, else why not.
   */
  private String notOurs(ObjectMeta meta) {
    Map<String, String> annotations = meta == null ? null : meta.getAnnotations();
    Map<String, String> labels = meta == null ? null : meta.getLabels();
    String release = annotations == null ? null : annotations.get(RELEASE_NAME);
    if (release != null) {
      String namespace = annotations.get(RELEASE_NAMESPACE);
      if (!release.equals(settings.release())
          || (namespace != null && !namespace.equals(settings.namespace()))) {
        return "belongs to release "
            + release
            + (namespace == null ? "" : " (" + namespace + ")")
            + ", not to "
            + releaseText()
            + ": two releases installed under one name? Give this one another release name or"
            + " fullnameOverride";
      }
      return null;
    }
    String instance = labels == null ? null : labels.get(INSTANCE_LABEL);
    if (settings.release().equals(instance)) {
      return null;
    }
    return "belongs to no release named "
        + settings.release()
        + ": it carries neither "
        + RELEASE_NAME
        + " nor "
        + INSTANCE_LABEL
        + "="
        + settings.release();
  }

  // ---- the reserved names -------------------------------------------------------------------

  private CheckResult reservedNames() {
    String target = settings.namespace() + "/" + SelftestSettings.RESERVED_PROBE_NAME;
    DryRun answer = cluster.dryRunCreate(reservedSecret());
    if (answer.wasAdmitted()) {
      return CheckResult.fail(
          RESERVED_NAMES,
          "the API server admitted a dry-run create of "
              + target
              + " by this test's ServiceAccount (nothing was stored): the reserved names"
              + " kuik-inject-* and kuik-provider-* are not held, so anyone allowed to create"
              + " Secrets can plant a credential that pods will pull with");
    }
    return reservedNameRefused(target, answer);
  }

  private CheckResult reservedNameRefused(String target, DryRun refused) {
    String ours = "ValidatingAdmissionPolicy '" + settings.policyName() + "'";
    String message = refused.message();
    if (refused.code() == 403 && message.contains(ours)) {
      return CheckResult.pass(
          RESERVED_NAMES,
          "a dry-run create of " + target + " was refused by " + ours + ": " + denial(message));
    }
    if (refused.code() == 403 && message.contains("ValidatingAdmissionPolicy '")) {
      return CheckResult.warn(
          RESERVED_NAMES,
          "a dry-run create of "
              + target
              + " was refused, but by another policy than "
              + settings.policyName()
              + " (the names are held, by another release's policy): "
              + quote(message));
    }
    if (refused.code() == 403 && message.contains("cannot create resource")) {
      return CheckResult.fail(
          RESERVED_NAMES,
          "RBAC refused the dry-run create of "
              + target
              + " before admission, so the policy was not tried: the selftest's ServiceAccount"
              + " needs create on Secrets in "
              + settings.namespace()
              + " (the chart's test hook grants it): "
              + quote(message));
    }
    return CheckResult.fail(
        RESERVED_NAMES,
        "a dry-run create of "
            + target
            + " was answered "
            + refused.code()
            + " "
            + refused.reason()
            + ", not the policy's refusal: "
            + quote(message));
  }

  /** What a policy's denial says, after the API server's own words. */
  private static String denial(String message) {
    String marker = "denied request: ";
    int at = message.indexOf(marker);
    return quote(at < 0 ? message : message.substring(at + marker.length()));
  }

  /**
   * A Secret as the syncer writes them (type, label, an empty {@code auths}), so that a policy that
   * lets it through can only have done so for the name and the identity.
   */
  private Secret reservedSecret() {
    String empty =
        Base64.getEncoder().encodeToString("{\"auths\":{}}".getBytes(StandardCharsets.UTF_8));
    return new SecretBuilder()
        .withNewMetadata()
        .withName(SelftestSettings.RESERVED_PROBE_NAME)
        .withNamespace(settings.namespace())
        .addToLabels("app.kubernetes.io/managed-by", "kuik-secret-syncer")
        .endMetadata()
        .withType("kubernetes.io/dockerconfigjson")
        .addToData(".dockerconfigjson", empty)
        .build();
  }

  // ---- the components -----------------------------------------------------------------------

  private CheckResult ready(String check, String deployment, URI readyz) {
    String where = "Deployment " + settings.namespace() + "/" + deployment;
    Read<Deployment> read = cluster.deployment(settings.namespace(), deployment);
    if (read.isMissing()) {
      return CheckResult.fail(check, "no " + where);
    }
    if (!read.isFound()) {
      return CheckResult.fail(check, cannotRead(where, read));
    }
    return ready(check, where, read.object(), readyz);
  }

  private CheckResult ready(String check, String where, Deployment deployment, URI readyz) {
    Integer wanted = deployment.getSpec() == null ? null : deployment.getSpec().getReplicas();
    int replicas = wanted == null ? 1 : wanted;
    var status = deployment.getStatus();
    int available =
        status == null || status.getAvailableReplicas() == null ? 0 : status.getAvailableReplicas();
    String count = available + " of " + replicas + " replicas available";
    if (replicas == 0) {
      return CheckResult.fail(check, where + " is scaled to 0 replicas");
    }
    if (available == 0) {
      return CheckResult.fail(
          check, where + ": " + count + notAvailableBecause(deployment) + podsSay(deployment));
    }
    if (readyz == null) {
      return CheckResult.pass(check, where + ": " + count);
    }
    Readyz answer = cluster.readyz(readyz);
    return switch (answer.state()) {
      case READY -> CheckResult.pass(check, where + ": " + count + "; " + readyz + " answered 200");
      case NOT_READY ->
          CheckResult.fail(
              check,
              where
                  + ": "
                  + count
                  + ", but "
                  + readyz
                  + " answered "
                  + answer.code()
                  + ": "
                  + quote(answer.detail()));
      case UNREACHABLE ->
          CheckResult.pass(
              check,
              where
                  + ": "
                  + count
                  + "; "
                  + readyz
                  + " not reachable from here ("
                  + answer.detail()
                  + "), so only the replicas were checked");
    };
  }

  /**
   * Why its pods are not ready, in their own words: each pod's {@code /readyz} (the syncer names
   * the policy it waits for, the webhook its informers), so that a process told a name that does
   * not exist is named as such.
   */
  private String podsSay(Deployment deployment) {
    Read<List<SelftestCluster.PodReadyz>> pods =
        cluster.podsReadyz(settings.namespace(), deployment);
    if (!pods.isFound()) {
      return pods.isMissing() ? "" : "; " + cannotRead("its pods", pods);
    }
    StringBuilder said = new StringBuilder();
    for (SelftestCluster.PodReadyz pod : pods.object()) {
      Readyz answer = pod.readyz();
      said.append("; pod ").append(pod.pod()).append(": ");
      switch (answer.state()) {
        case READY -> said.append("/readyz answered 200");
        case NOT_READY ->
            said.append("/readyz answered ")
                .append(answer.code())
                .append(": ")
                .append(quote(answer.detail()));
        case UNREACHABLE ->
            said.append("/readyz not reachable (").append(answer.detail()).append(')');
      }
    }
    return said.toString();
  }

  private static String notAvailableBecause(Deployment deployment) {
    if (deployment.getStatus() == null || deployment.getStatus().getConditions() == null) {
      return "";
    }
    for (DeploymentCondition condition : deployment.getStatus().getConditions()) {
      if ("Available".equals(condition.getType()) && condition.getMessage() != null) {
        return " (" + quote(condition.getMessage()) + ")";
      }
    }
    return "";
  }

  // ---- words --------------------------------------------------------------------------------

  private String releaseText() {
    return settings.release() + " (" + settings.namespace() + ")";
  }
}
