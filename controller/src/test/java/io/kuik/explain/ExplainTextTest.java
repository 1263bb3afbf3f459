package io.kuik.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.explain.Explanation.ContainerExplanation;
import io.kuik.explain.Explanation.Offer;
import io.kuik.explain.Explanation.WebhookNow;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What {@code kuik explain} prints for a person, line by line, for every shape of an answer. */
class ExplainTextTest {

  private static final ContainerExplanation REWRITTEN =
      new ContainerExplanation(
          "app",
          "quay.io/acme/app:1.0",
          "docker.io/acme/app:1.0",
          "ImageAlternative/acme",
          "spec.alternatives[1] (quay.io/acme/app)",
          "docker.io/acme/app:1.0 unreachable",
          new WebhookNow(
              true,
              List.of("docker.io/acme/app:1.0  original", "quay.io/acme/app:1.0  acme"),
              "quay.io/acme/app:1.0",
              "the first available"),
          "kuik-inject-imagealternative-acme",
          true,
          "accepted by quay.io",
          null,
          List.of(
              new Offer(
                  "kuik-inject-imagealternative-acme",
                  "quay.io/acme",
                  "read",
                  "kuik-system/quay-pull: quay.io/acme",
                  "ImageAlternative/acme spec.alternatives[1]",
                  true),
              new Offer(
                  "kuik-inject-imagealternative-tools",
                  "quay.io",
                  "as the syncer writes it now",
                  null,
                  "ImageAlternative/tools spec.alternatives[0]",
                  false)));

  private static final ContainerExplanation PLAIN =
      new ContainerExplanation(
          "sidecar",
          "busybox:1.36",
          null,
          null,
          null,
          null,
          new WebhookNow(false, List.of(), null, "no routing resource covers it"),
          null,
          false,
          null,
          null,
          List.of());

  private static final ContainerExplanation UNLISTED =
      new ContainerExplanation(
          "init",
          "quay.io/acme/app:0.9",
          "docker.io/acme/app:0.9",
          "ImageAlternative/acme",
          null,
          null,
          new WebhookNow(false, List.of(), null, "not probed"),
          "kuik-inject-imagealternative-acme",
          false,
          null,
          null,
          List.of());

  @Test
  void everyLineOfAnExplanationInItsPlace() {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("tier", "prod");
    labels.put("app", "web");
    Explanation e =
        new Explanation(
            "Pod team-a/web",
            labels,
            true,
            List.of(REWRITTEN, PLAIN, UNLISTED),
            List.of("a warning", "another"),
            List.of("cannot read Secret team-a/x (403 Forbidden)"));

    assertEquals(
        """
        Pod team-a/web
          namespace labels: app=web, tier=prod
          served by this syncer instance: yes

        container app
          image:           quay.io/acme/app:1.0
          original image:  docker.io/acme/app:1.0
          rewritten by:    ImageAlternative/acme spec.alternatives[1] (quay.io/acme/app)
          why:             docker.io/acme/app:1.0 unreachable
          webhook now:     quay.io/acme/app:1.0 (the first available)
              1. docker.io/acme/app:1.0  original
              2. quay.io/acme/app:1.0  acme
          pull secret:     kuik-inject-imagealternative-acme (referenced by the pod)
          credential:      accepted by quay.io
          kubelet offers:
              1. kuik-inject-imagealternative-acme key quay.io/acme (read; from kuik-system/quay-pull: quay.io/acme)
              2. kuik-inject-imagealternative-tools key quay.io (as the syncer writes it now; written for ImageAlternative/tools spec.alternatives[0], not for this image)

        container sidecar
          image:           busybox:1.36
          original image:  (not rewritten by kuik)
          webhook now:     no routing resource covers it
          pull secret:     none from kuik
          kubelet offers:  nothing: an anonymous pull

        container init
          image:           quay.io/acme/app:0.9
          original image:  docker.io/acme/app:0.9
          rewritten by:    ImageAlternative/acme
          webhook now:     not probed
          pull secret:     kuik-inject-imagealternative-acme (NOT referenced by the pod)
          kubelet offers:  nothing: an anonymous pull

        warnings
          a warning
          another

        not readable with your credentials
          cannot read Secret team-a/x (403 Forbidden)
        """,
        Explain.text(e));
  }

  @Test
  void unreadableLabelsNoLabelsAndANamespaceNotServedAreSaidSo() {
    assertEquals(
        """
        Deployment team-a/web
          namespace labels: (not readable)
          served by this syncer instance: unknown
        """,
        Explain.text(
            new Explanation("Deployment team-a/web", null, null, List.of(), List.of(), List.of())));
    assertEquals(
        """
        Pod team-a/web
          namespace labels: (none)
          served by this syncer instance: no
        """,
        Explain.text(
            new Explanation("Pod team-a/web", Map.of(), false, List.of(), List.of(), List.of())));
  }
}
