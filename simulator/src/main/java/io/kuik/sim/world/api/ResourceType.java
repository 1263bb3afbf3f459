package io.kuik.sim.world.api;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** A kind the fake API server serves: its group, version, plural resource name and scope. */
public record ResourceType(
    String group, String version, String resource, String kind, boolean namespaced) {

  public static final ResourceType NAMESPACE = core("namespaces", "Namespace", false);
  public static final ResourceType POD = core("pods", "Pod", true);
  public static final ResourceType SECRET = core("secrets", "Secret", true);
  public static final ResourceType EVENT = core("events", "Event", true);
  public static final ResourceType SERVICE_ACCOUNT =
      core("serviceaccounts", "ServiceAccount", true);
  public static final ResourceType IMAGE_ALTERNATIVE =
      new ResourceType("kuik.enix.io", "v1alpha1", "imagealternatives", "ImageAlternative", false);
  public static final ResourceType IMAGE_MIRROR =
      new ResourceType("kuik.enix.io", "v1alpha1", "imagemirrors", "ImageMirror", false);
  public static final ResourceType VALIDATING_ADMISSION_POLICY =
      new ResourceType(
          "admissionregistration.k8s.io",
          "v1",
          "validatingadmissionpolicies",
          "ValidatingAdmissionPolicy",
          false);
  public static final ResourceType VALIDATING_ADMISSION_POLICY_BINDING =
      new ResourceType(
          "admissionregistration.k8s.io",
          "v1",
          "validatingadmissionpolicybindings",
          "ValidatingAdmissionPolicyBinding",
          false);
  public static final ResourceType ROLE = rbac("roles", "Role", true);
  public static final ResourceType CLUSTER_ROLE = rbac("clusterroles", "ClusterRole", false);
  public static final ResourceType ROLE_BINDING = rbac("rolebindings", "RoleBinding", true);
  public static final ResourceType CLUSTER_ROLE_BINDING =
      rbac("clusterrolebindings", "ClusterRoleBinding", false);
  public static final ResourceType LEASE =
      new ResourceType("coordination.k8s.io", "v1", "leases", "Lease", true);
  public static final ResourceType DEPLOYMENT =
      new ResourceType("apps", "v1", "deployments", "Deployment", true);
  public static final ResourceType CUSTOM_RESOURCE_DEFINITION =
      new ResourceType(
          "apiextensions.k8s.io",
          "v1",
          "customresourcedefinitions",
          "CustomResourceDefinition",
          false);

  public static final List<ResourceType> ALL =
      List.of(
          NAMESPACE,
          POD,
          SECRET,
          EVENT,
          SERVICE_ACCOUNT,
          IMAGE_ALTERNATIVE,
          IMAGE_MIRROR,
          VALIDATING_ADMISSION_POLICY,
          VALIDATING_ADMISSION_POLICY_BINDING,
          ROLE,
          CLUSTER_ROLE,
          ROLE_BINDING,
          CLUSTER_ROLE_BINDING,
          LEASE,
          CUSTOM_RESOURCE_DEFINITION,
          DEPLOYMENT);

  public ResourceType {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(kind, "kind");
  }

  /** {@code v1} for the core group, {@code group/version} otherwise. */
  public String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  public static Optional<ResourceType> ofKind(String apiVersion, String kind) {
    return ALL.stream()
        .filter(t -> t.kind.equals(kind) && t.apiVersion().equals(apiVersion))
        .findFirst();
  }

  private static ResourceType core(String resource, String kind, boolean namespaced) {
    return new ResourceType("", "v1", resource, kind, namespaced);
  }

  private static ResourceType rbac(String resource, String kind, boolean namespaced) {
    return new ResourceType("rbac.authorization.k8s.io", "v1", resource, kind, namespaced);
  }
}
