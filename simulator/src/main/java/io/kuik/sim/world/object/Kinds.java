package io.kuik.sim.world.object;

import io.kuik.sim.world.api.ResourceType;
import java.util.Set;

/**
 * What the API server's registry knows per resource type beyond its name: how names are validated,
 * which kinds carry {@code metadata.generation}, which keep {@code status} behind a subresource,
 * and how the type is spelled in error messages.
 */
public final class Kinds {

  /** How a kind's names are validated (apimachinery's name functions). */
  public enum NameRule {
    DNS_SUBDOMAIN,
    DNS_LABEL,
    PATH_SEGMENT
  }

  // Kinds whose registry strategy sets generation on create and bumps it on spec changes.
  // Secrets, namespaces, events, leases and RBAC objects have no generation at all.
  private static final Set<ResourceType> GENERATION =
      Set.of(
          ResourceType.POD,
          ResourceType.IMAGE_ALTERNATIVE,
          ResourceType.IMAGE_MIRROR,
          ResourceType.VALIDATING_ADMISSION_POLICY,
          ResourceType.VALIDATING_ADMISSION_POLICY_BINDING,
          ResourceType.CUSTOM_RESOURCE_DEFINITION,
          ResourceType.DEPLOYMENT);

  // The routing kinds' CRDs declare subresources.status (chart/files/crds; KindsTest checks it).
  private static final Set<ResourceType> STATUS_SUBRESOURCE =
      Set.of(
          ResourceType.POD,
          ResourceType.NAMESPACE,
          ResourceType.DEPLOYMENT,
          ResourceType.IMAGE_ALTERNATIVE,
          ResourceType.IMAGE_MIRROR);

  private Kinds() {}

  public static boolean hasGeneration(ResourceType type) {
    return GENERATION.contains(type);
  }

  /** Writes to the main resource keep the stored status; only the status subresource sets it. */
  public static boolean hasStatusSubresource(ResourceType type) {
    return STATUS_SUBRESOURCE.contains(type);
  }

  public static NameRule nameRule(ResourceType type) {
    if (type.equals(ResourceType.NAMESPACE)) {
      return NameRule.DNS_LABEL;
    }
    if (type.group().equals("rbac.authorization.k8s.io")) {
      return NameRule.PATH_SEGMENT;
    }
    return NameRule.DNS_SUBDOMAIN;
  }

  /** {@code secrets}, {@code imagemirrors.kuik.enix.io}: the resource as 403/404/409 name it. */
  public static String qualifiedResource(ResourceType type) {
    return type.group().isEmpty() ? type.resource() : type.resource() + "." + type.group();
  }

  /** {@code Secret}, {@code ImageMirror.kuik.enix.io}: the kind as 422 Invalid names it. */
  public static String qualifiedKind(ResourceType type) {
    return type.group().isEmpty() ? type.kind() : type.kind() + "." + type.group();
  }
}
