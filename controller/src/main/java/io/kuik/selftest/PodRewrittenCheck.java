package io.kuik.selftest;

import static io.kuik.selftest.Words.quote;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kuik.model.ResourceId;
import io.kuik.model.RewriteAnnotations;
import io.kuik.model.SecretNames;
import io.kuik.selftest.SelftestCluster.DryRun;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The check that a dry-run pod of the user's image, in the user's namespace, comes back from the
 * admission chain rewritten by kuik and referencing the Secret its resource injects.
 */
final class PodRewrittenCheck {

  private final SelftestCluster cluster;
  private final SelftestSettings settings;

  PodRewrittenCheck(SelftestCluster cluster, SelftestSettings settings) {
    this.cluster = cluster;
    this.settings = settings;
  }

  CheckResult run() {
    SelftestSettings.PodCheck check = settings.pod();
    if (check == null) {
      return CheckResult.skip(
          Selftest.POD_REWRITTEN,
          "not asked: --pod-namespace NS --image IMAGE create a dry-run pod of IMAGE in NS and check"
              + " that the webhook rewrites it");
    }
    String what = "a dry-run pod of " + check.image() + " in " + check.namespace();
    DryRun answer = cluster.dryRunCreate(pod(check));
    if (!answer.wasAdmitted()) {
      return CheckResult.fail(
          Selftest.POD_REWRITTEN,
          what
              + " was refused ("
              + answer.code()
              + " "
              + answer.reason()
              + "): "
              + quote(answer.message()));
    }
    return answer.admitted() instanceof Pod pod
        ? rewritten(what, pod)
        : CheckResult.fail(
            Selftest.POD_REWRITTEN, what + " came back as something else than a pod");
  }

  private CheckResult rewritten(String what, Pod pod) {
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    Map<String, String> rewrittenBy =
        RewriteAnnotations.readMap(annotations, RewriteAnnotations.REWRITTEN_BY);
    String by = rewrittenBy.get(PodCheckNames.CONTAINER);
    if (by == null) {
      return CheckResult.fail(
          Selftest.POD_REWRITTEN,
          what
              + " came back unchanged: no ImageAlternative or ImageMirror routes that image in that"
              + " namespace (their selectors, or no candidate answered), or the webhook did not"
              + " answer (it fails open); kuik explain deployment shows why");
    }
    String image = pod.getSpec().getContainers().get(0).getImage();
    var resource = ResourceId.parse(by);
    if (resource.isEmpty()) {
      return CheckResult.fail(
          Selftest.POD_REWRITTEN,
          what + " was rewritten to " + image + " by an unknown resource " + by);
    }
    String secret = SecretNames.injected(resource.get().kind().kind(), resource.get().name());
    Set<String> references = new TreeSet<>();
    if (pod.getSpec().getImagePullSecrets() != null) {
      for (LocalObjectReference reference : pod.getSpec().getImagePullSecrets()) {
        references.add(reference.getName());
      }
    }
    if (!references.contains(secret)) {
      return CheckResult.fail(
          Selftest.POD_REWRITTEN,
          what
              + " was rewritten to "
              + image
              + " by "
              + by
              + ", but references no "
              + secret
              + ": the entry's auth does not inject, or the namespace is labelled"
              + " kuik.enix.io/pull-secrets-override=false");
    }
    return CheckResult.pass(
        Selftest.POD_REWRITTEN,
        what + " was rewritten to " + image + " by " + by + ", referencing " + secret);
  }

  /**
   * A pod the restricted Pod Security level admits, so that only kuik's webhook decides what comes
   * back; its name is generated, and nothing of it is stored.
   */
  private static Pod pod(SelftestSettings.PodCheck check) {
    Container container =
        new ContainerBuilder()
            .withName(PodCheckNames.CONTAINER)
            .withImage(check.image())
            .withNewSecurityContext()
            .withAllowPrivilegeEscalation(false)
            .withRunAsNonRoot(true)
            .withNewCapabilities()
            .addToDrop("ALL")
            .endCapabilities()
            .withNewSeccompProfile()
            .withType("RuntimeDefault")
            .endSeccompProfile()
            .endSecurityContext()
            .build();
    return new PodBuilder()
        .withNewMetadata()
        .withGenerateName("kuik-selftest-")
        .withNamespace(check.namespace())
        .addToLabels("app.kubernetes.io/name", "kuik-selftest")
        .endMetadata()
        .withNewSpec()
        .withRestartPolicy("Never")
        .withAutomountServiceAccountToken(false)
        .withContainers(container)
        .endSpec()
        .build();
  }

  /** The dry-run pod's names. */
  static final class PodCheckNames {
    static final String CONTAINER = "selftest";

    private PodCheckNames() {}
  }
}
