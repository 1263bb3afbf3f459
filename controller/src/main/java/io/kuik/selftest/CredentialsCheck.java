package io.kuik.selftest;

import static io.kuik.selftest.Words.cannotRead;
import static io.kuik.selftest.Words.quote;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.kuik.model.crd.RoutingResourceStatus;
import io.kuik.selftest.SelftestCluster.Read;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The check that no routing resource reports a credential its registry refused, read from the
 * {@code CredentialsAccepted} condition the syncer writes after trying each injected credential.
 */
final class CredentialsCheck {

  private final SelftestCluster cluster;

  CredentialsCheck(SelftestCluster cluster) {
    this.cluster = cluster;
  }

  CheckResult run() {
    Read<List<GenericKubernetesResource>> read = cluster.routingResources();
    if (read.isMissing()) {
      return CheckResult.fail(
          Selftest.CREDENTIALS,
          "the API server serves no ImageAlternative or ImageMirror: the CRDs are not installed"
              + " (crds.enabled)");
    }
    if (!read.isFound()) {
      return CheckResult.fail(
          Selftest.CREDENTIALS, cannotRead("the ImageAlternatives and ImageMirrors", read));
    }
    return credentials(read.object());
  }

  private static CheckResult credentials(List<GenericKubernetesResource> resources) {
    List<String> refused = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    int accepted = 0;
    for (GenericKubernetesResource resource : resources) {
      Map<String, Object> condition =
          condition(resource, RoutingResourceStatus.CREDENTIALS_ACCEPTED);
      if (condition == null) {
        continue;
      }
      String who = resource.getKind() + "/" + resource.getMetadata().getName();
      String message = String.valueOf(condition.getOrDefault("message", ""));
      switch (String.valueOf(condition.get("status"))) {
        case "True" -> accepted++;
        case "False" -> refused.add(who + ": " + quote(message));
        default -> unknown.add(who + ": " + quote(message));
      }
    }
    if (!refused.isEmpty()) {
      return CheckResult.fail(
          Selftest.CREDENTIALS,
          "a registry refused a credential kuik injects (pods pulling with it will fail): "
              + String.join("; ", refused));
    }
    if (!unknown.isEmpty()) {
      return CheckResult.warn(
          Selftest.CREDENTIALS,
          "not every credential could be tried: " + String.join("; ", unknown));
    }
    if (accepted == 0) {
      return CheckResult.pass(
          Selftest.CREDENTIALS, "no ImageAlternative or ImageMirror reports a credential to try");
    }
    return CheckResult.pass(
        Selftest.CREDENTIALS,
        "the registries accepted the credentials of "
            + accepted
            + (accepted == 1 ? " resource" : " resources"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> condition(GenericKubernetesResource resource, String type) {
    Object status = resource.getAdditionalProperties().get("status");
    if (!(status instanceof Map<?, ?> fields)) {
      return null;
    }
    if (!(fields.get("conditions") instanceof List<?> conditions)) {
      return null;
    }
    for (Object condition : conditions) {
      if (condition instanceof Map<?, ?> map && type.equals(map.get("type"))) {
        return (Map<String, Object>) map;
      }
    }
    return null;
  }
}
