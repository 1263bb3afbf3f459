package io.kuik.selftest;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBindingBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A {@link SelftestCluster} whose answers a test sets one by one; by default the answers of a
 * healthy release {@code kuik} in {@code kuik-system}. Records what was sent.
 */
final class FakeSelftestCluster implements SelftestCluster {

  static final String RELEASE = "kuik";
  static final String NAMESPACE = "kuik-system";

  Read<ValidatingAdmissionPolicy> policy = Read.found(policy(RELEASE, "Fail"));
  Read<ValidatingAdmissionPolicyBinding> binding = Read.found(binding("kuik-pull-secrets", "Deny"));
  final Map<String, Read<Deployment>> deployments = new HashMap<>();
  Function<HasMetadata, DryRun> dryRun = FakeSelftestCluster::policyRefusesSecrets;
  Readyz readyz = Readyz.ready();
  Read<List<GenericKubernetesResource>> routing = Read.found(List.of());
  final List<HasMetadata> sent = new ArrayList<>();

  FakeSelftestCluster() {
    deployments.put("kuik-secret-syncer", Read.found(deployment("kuik-secret-syncer", 2, 2)));
    deployments.put("kuik-webhook", Read.found(deployment("kuik-webhook", 2, 2)));
  }

  static SelftestSettings settings() {
    return new SelftestSettings(
        RELEASE,
        NAMESPACE,
        SelftestSettings.Names.of(RELEASE),
        URI.create("http://kuik-secret-syncer-metrics.kuik-system.svc:8080/readyz"),
        URI.create("http://kuik-webhook-metrics.kuik-system.svc:8080/readyz"),
        null);
  }

  static ValidatingAdmissionPolicy policy(String release, String failurePolicy) {
    return new ValidatingAdmissionPolicyBuilder()
        .withNewMetadata()
        .withName("kuik-pull-secrets")
        .addToAnnotations(Selftest.RELEASE_NAME, release)
        .addToAnnotations(Selftest.RELEASE_NAMESPACE, NAMESPACE)
        .endMetadata()
        .withNewSpec()
        .withFailurePolicy(failurePolicy)
        .endSpec()
        .build();
  }

  static ValidatingAdmissionPolicyBinding binding(String policyName, String action) {
    return new ValidatingAdmissionPolicyBindingBuilder()
        .withNewMetadata()
        .withName("kuik-pull-secrets")
        .addToAnnotations(Selftest.RELEASE_NAME, RELEASE)
        .addToAnnotations(Selftest.RELEASE_NAMESPACE, NAMESPACE)
        .endMetadata()
        .withNewSpec()
        .withPolicyName(policyName)
        .withValidationActions(action)
        .endSpec()
        .build();
  }

  static Deployment deployment(String name, int replicas, int available) {
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(NAMESPACE)
        .endMetadata()
        .withNewSpec()
        .withReplicas(replicas)
        .endSpec()
        .withNewStatus()
        .withAvailableReplicas(available)
        .endStatus()
        .build();
  }

  /** A routing resource whose status holds a CredentialsAccepted condition. */
  static GenericKubernetesResource withCredentials(
      String kind, String name, String status, String message) {
    Map<String, Object> condition = new HashMap<>();
    condition.put("type", "CredentialsAccepted");
    condition.put("status", status);
    condition.put("message", message);
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("kuik.enix.io/v1alpha1")
        .withKind(kind)
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .addToAdditionalProperties("status", Map.of("conditions", List.of(condition)))
        .build();
  }

  /** As the chart's policy answers this identity: reserved Secret names refused, pods admitted. */
  static DryRun policyRefusesSecrets(HasMetadata object) {
    if (object instanceof Pod pod) {
      return DryRun.admitted(new PodBuilder(pod).build());
    }
    return DryRun.refused(
        403,
        "Forbidden",
        "secrets \"kuik-inject-selftest\" is forbidden: ValidatingAdmissionPolicy"
            + " 'kuik-pull-secrets' with binding 'kuik-pull-secrets' denied request: Secrets named"
            + " kuik-inject-* and kuik-provider-* are written only by the kuik secret-syncer");
  }

  @Override
  public Read<ValidatingAdmissionPolicy> admissionPolicy(String name) {
    return policy;
  }

  @Override
  public Read<ValidatingAdmissionPolicyBinding> admissionPolicyBinding(String name) {
    return binding;
  }

  @Override
  public Read<Deployment> deployment(String namespace, String name) {
    return deployments.getOrDefault(name, Read.missing());
  }

  @Override
  public DryRun dryRunCreate(HasMetadata object) {
    sent.add(object);
    return dryRun.apply(object);
  }

  @Override
  public Readyz readyz(URI url) {
    return readyz;
  }

  /** What the pods of a Deployment answer on /readyz: none by default. */
  Read<List<PodReadyz>> pods = Read.found(List.of());

  @Override
  public Read<List<PodReadyz>> podsReadyz(String namespace, Deployment deployment) {
    return pods;
  }

  @Override
  public Read<List<GenericKubernetesResource>> routingResources() {
    return routing;
  }
}
