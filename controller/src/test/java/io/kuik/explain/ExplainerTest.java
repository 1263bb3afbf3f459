package io.kuik.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kuik.explain.Explanation.ContainerExplanation;
import io.kuik.model.DockerConfig;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResources;
import io.kuik.model.Validated;
import io.kuik.model.crd.ImageAlternative;
import io.kuik.model.crd.RoutingResourceStatus.CredentialStatus;
import io.kuik.ports.RegistryProber;
import io.kuik.ports.RegistryProber.Availability;
import io.kuik.syncer.SyncerSettings;
import io.kuik.syncer.Targeting;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The explainer on what was read, without a cluster: each line of what {@code kuik explain} says
 * about a container, from a stored pod and from a Deployment's template, with and without probes.
 * {@link ExplainOnMockApiServerTest} reads the same through the API; this pins each decision.
 */
class ExplainerTest {

  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static final SyncerSettings SETTINGS = SyncerSettings.defaults("kuik-system");

  private static Validated alternative(String policy) {
    return RoutingResources.from(
        YAML.unmarshal(
            """
            apiVersion: kuik.enix.io/v1alpha1
            kind: ImageAlternative
            metadata: {name: acme, uid: u1}
            spec:
              rewritePolicy: %s
              alternatives:
              - repository: docker.io/acme/app
              - repository: quay.io/acme/app
                auth: {secretRef: {name: quay-pull}}
            """
                .formatted(policy),
            ImageAlternative.class));
  }

  private static Secret quayPull() {
    String config =
        new DockerConfig(Map.of("quay.io/acme", RegistryCredential.basic("acme", "p-acme")))
            .toJson();
    return YAML.unmarshal(
        "apiVersion: v1\nkind: Secret\nmetadata: {name: quay-pull, namespace: kuik-system}\n"
            + "type: kubernetes.io/dockerconfigjson\ndata: {.dockerconfigjson: "
            + Base64.getEncoder().encodeToString(config.getBytes(StandardCharsets.UTF_8))
            + "}\n",
        Secret.class);
  }

  /** As the webhook leaves it: app rewritten (an init container too), a sidecar untouched. */
  private static Pod rewrittenPod() {
    return YAML.unmarshal(
        """
        apiVersion: v1
        kind: Pod
        metadata:
          name: web
          namespace: team-a
          labels: {kuik.enix.io/images-rewritten: "true"}
          annotations:
            kuik.enix.io/original-images: '{"app":"docker.io/acme/app:1.0","init":"docker.io/acme/app:0.9"}'
            kuik.enix.io/rewritten-by: '{"app":"ImageAlternative/acme","init":"ImageAlternative/acme"}'
            kuik.enix.io/reason: '{"app":"served by ImageAlternative/acme"}'
            team: kept
        spec:
          initContainers:
          - {name: init, image: "quay.io/acme/app:0.9"}
          containers:
          - {name: app, image: "quay.io/acme/app:1.0"}
          - {name: sidecar, image: "docker.io/library/busybox:1.36"}
          imagePullSecrets:
          - {name: kuik-inject-imagealternative-acme}
          - {name: own-pull}
          - {}
        status: {phase: Running}
        """,
        Pod.class);
  }

  /** A Deployment's template, as explain reads one: nothing of kuik on it yet. */
  private static Pod template() {
    return YAML.unmarshal(
        """
        apiVersion: v1
        kind: Pod
        metadata: {namespace: team-a, labels: {app: web}}
        spec:
          containers:
          - {name: app, image: "docker.io/acme/app:1.0"}
          - {name: sidecar, image: "docker.io/library/busybox:1.36"}
        """,
        Pod.class);
  }

  private static ExplainInputs inputs(
      Pod pod,
      boolean admitted,
      Optional<Map<String, String>> labels,
      List<Validated> resources,
      Map<ResourceId, List<CredentialStatus>> credentials) {
    return new ExplainInputs(
        (admitted ? "Pod " : "Deployment ") + "team-a/web",
        pod,
        admitted,
        labels,
        resources,
        credentials,
        Map.of("quay-pull", quayPull()),
        admitted ? List.of(pod) : List.of(),
        Map.of(),
        List.of("cannot read something (403 Forbidden)"));
  }

  private static ExplainInputs stored(List<Validated> resources) {
    return inputs(rewrittenPod(), true, Optional.of(Map.of("tier", "prod")), resources, Map.of());
  }

  private static ContainerExplanation container(Explanation e, String name) {
    return e.containers().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
  }

  /** Answers every candidate of the given images AVAILABLE, the others NOT_FOUND. */
  private static RegistryProber serving(String... images) {
    List<String> served = List.of(images);
    return candidates -> {
      List<Availability> answers = new ArrayList<>();
      for (RegistryProber.Probe probe : candidates) {
        boolean ok = served.contains(probe.image().toString());
        answers.add(ok ? Availability.AVAILABLE : Availability.NOT_FOUND);
        if (ok) {
          break;
        }
      }
      return answers;
    };
  }

  @Test
  void aStoredPodIsExplainedFromItsAnnotationsContainersAndInitContainersAlike() {
    Explanation e =
        new Explainer(SETTINGS, Explainer.NOT_PROBING)
            .explain(stored(List.of(alternative("OnFailure"))));

    assertEquals("Pod team-a/web", e.object());
    assertEquals(Map.of("tier", "prod"), e.namespaceLabels());
    assertEquals(Boolean.TRUE, e.servedByThisInstance());
    assertEquals(
        List.of("app", "sidecar", "init"), e.containers().stream().map(c -> c.name()).toList());
    for (String name : List.of("app", "init")) {
      ContainerExplanation c = container(e, name);
      assertEquals("ImageAlternative/acme", c.rewrittenBy(), name);
      assertEquals("spec.alternatives[1] (quay.io/acme/app)", c.entry(), name);
      assertEquals("kuik-inject-imagealternative-acme", c.pullSecret(), name);
      assertTrue(c.referenced(), name);
      assertEquals(1, c.offered().size(), name);
      assertTrue(c.offered().get(0).forThisImage(), name);
    }
    ContainerExplanation app = container(e, "app");
    assertEquals("quay.io/acme/app:1.0", app.image());
    assertEquals("docker.io/acme/app:1.0", app.original());
    assertEquals("served by ImageAlternative/acme", app.reason());
    assertEquals(
        "not tried yet by the syncer (the resource's status says nothing of it)", app.credential());
    assertEquals("docker.io/acme/app:0.9", container(e, "init").original());
    assertNull(container(e, "init").reason());

    ContainerExplanation sidecar = container(e, "sidecar");
    assertNull(sidecar.original());
    assertNull(sidecar.rewrittenBy());
    assertNull(sidecar.pullSecret());
    assertNull(sidecar.credential());
    assertFalse(sidecar.referenced());
    assertTrue(sidecar.offered().isEmpty(), "busybox is offered no kuik key");
    assertEquals(List.of("cannot read something (403 Forbidden)"), e.unreadable());
    assertEquals(List.of(), e.warnings());
  }

  @Test
  void theWebhookNowDecidesFromTheOriginalImagesAndListsTheCandidatesWithoutProbing() {
    Explanation e =
        new Explainer(SETTINGS, Explainer.NOT_PROBING)
            .explain(stored(List.of(alternative("OnFailure"))));

    Explanation.WebhookNow app = container(e, "app").webhookNow();
    assertFalse(app.probed());
    assertNull(app.chosen());
    assertEquals("not probed: --probe asks the registries", app.reason());
    assertEquals(
        List.of(
            "docker.io/acme/app:1.0  original",
            "quay.io/acme/app:1.0  ImageAlternative/acme spec.alternatives[1] OnFailure"),
        app.candidates());
    Explanation.WebhookNow sidecar = container(e, "sidecar").webhookNow();
    assertEquals(List.of(), sidecar.candidates());
    assertFalse(sidecar.probed());
    assertEquals("no routing resource covers it", sidecar.reason());
  }

  @Test
  void probingChoosesWhatTheRegistriesServeAndSaysWhy() {
    Explanation e =
        new Explainer(SETTINGS, serving("quay.io/acme/app:1.0"))
            .explain(stored(List.of(alternative("OnFailure"))));

    Explanation.WebhookNow app = container(e, "app").webhookNow();
    assertTrue(app.probed());
    assertEquals("quay.io/acme/app:1.0", app.chosen());
    assertFalse(app.reason().isEmpty(), app.toString());
    assertEquals(2, app.candidates().size());
    assertTrue(container(e, "sidecar").webhookNow().probed(), "probed, nothing covers it");
  }

  @Test
  void aDeploymentsTemplateIsExplainedAsTheWebhookWouldRouteItNow() {
    ExplainInputs in = anOnFailureTemplate();

    Explanation e = new Explainer(SETTINGS, serving("quay.io/acme/app:1.0")).explain(in);

    ContainerExplanation app = container(e, "app");
    assertEquals("quay.io/acme/app:1.0", app.image(), "the image the webhook would choose");
    assertEquals("docker.io/acme/app:1.0", app.original(), "the template's own image");
    assertEquals("ImageAlternative/acme", app.rewrittenBy());
    assertEquals("spec.alternatives[1] (quay.io/acme/app)", app.entry());
    assertEquals(app.webhookNow().reason(), app.reason(), "the decision's reason");
    assertEquals("kuik-inject-imagealternative-acme", app.pullSecret());
    assertTrue(app.referenced(), "the webhook would add the reference");
    assertEquals(
        1, app.offered().size(), "the OnFailure Secret holds what the template's pod would need");
    ContainerExplanation sidecar = container(e, "sidecar");
    assertEquals("docker.io/library/busybox:1.36", sidecar.image());
    assertNull(sidecar.original(), "not rewritten");
    assertNull(sidecar.rewrittenBy());
  }

  @Test
  void aTemplateTheWebhookWouldNotChangeNeedsNothingFromKuik() {
    ExplainInputs in = anOnFailureTemplate();

    Explanation e = new Explainer(SETTINGS, serving("docker.io/acme/app:1.0")).explain(in);

    ContainerExplanation app = container(e, "app");
    assertEquals("docker.io/acme/app:1.0", app.image());
    assertNull(app.original());
    assertNull(app.rewrittenBy());
    assertNull(app.pullSecret());
    assertTrue(app.offered().isEmpty(), "nobody writes a Secret for it");
  }

  @Test
  void aNamespaceThisInstanceDoesNotServeIsWarnedAboutAndUnreadableLabelsAreUnknown() {
    SyncerSettings labelledOnly = SETTINGS.withTargeting(new Targeting("kuik-system", false));
    Explanation notServed =
        new Explainer(labelledOnly, Explainer.NOT_PROBING)
            .explain(stored(List.of(alternative("Always"))));
    assertEquals(Boolean.FALSE, notServed.servedByThisInstance());
    assertTrue(
        notServed
            .warnings()
            .contains(
                "the syncer of kuik-system does not serve namespace team-a (its"
                    + " kuik.enix.io/pull-secrets-* labels, or namespacesByDefault=false): it writes"
                    + " no kuik-inject-* Secret there"),
        notServed.warnings().toString());

    Explanation unknown =
        new Explainer(SETTINGS, Explainer.NOT_PROBING)
            .explain(
                inputs(
                    rewrittenPod(),
                    true,
                    Optional.empty(),
                    List.of(alternative("Always")),
                    Map.of()));
    assertNull(unknown.servedByThisInstance());
    assertNull(unknown.namespaceLabels());
    assertFalse(unknown.warnings().stream().anyMatch(w -> w.contains("does not serve")));
  }

  @Test
  void aPodThatDoesNotListItsSecretIsWarnedAbout() {
    Pod pod = rewrittenPod();
    pod.getSpec().setImagePullSecrets(List.of());
    Explanation e =
        new Explainer(SETTINGS, Explainer.NOT_PROBING)
            .explain(
                inputs(
                    pod,
                    true,
                    Optional.of(Map.of("tier", "prod")),
                    List.of(alternative("Always")),
                    Map.of()));

    assertFalse(container(e, "app").referenced());
    assertTrue(
        e.warnings()
            .contains(
                "container app: its credential is in kuik-inject-imagealternative-acme, which the"
                    + " pod does not list in imagePullSecrets"),
        e.warnings().toString());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "Accepted | 200 OK | accepted by quay.io, tried 2026-01-01T10:00:00Z",
        "Refused | 401 UNAUTHORIZED | REFUSED by quay.io (401 UNAUTHORIZED), tried 2026-01-01T10:00:00Z",
        "Unreachable | connection refused | quay.io did not answer (connection refused), tried 2026-01-01T10:00:00Z",
        "NotTriedYet | | not tried yet by the syncer",
      })
  void theCredentialIsWhatTheResourcesStatusSaysTheRegistryAnswered(
      String outcome, String answer, String said) {
    ResourceId acme = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");
    List<CredentialStatus> statuses =
        List.of(
            new CredentialStatus("quay.io/other", "quay.io", "Refused", "not this one", null),
            new CredentialStatus(
                "quay.io/acme/app", "quay.io", outcome, answer, "2026-01-01T10:00:00Z"));
    Explanation e =
        new Explainer(SETTINGS, Explainer.NOT_PROBING)
            .explain(
                inputs(
                    rewrittenPod(),
                    true,
                    Optional.of(Map.of("tier", "prod")),
                    List.of(alternative("Always")),
                    Map.of(acme, statuses)));

    assertEquals(said, container(e, "app").credential());
    boolean warned =
        e.warnings()
            .contains(
                "container app: "
                    + said
                    + "; a pull with kuik-inject-imagealternative-acme will fail until the"
                    + " credential in its secretRef Secret is fixed");
    assertEquals(outcome.equals("Refused"), warned, e.warnings().toString());
  }

  @Test
  void aStatusWithoutOutcomeAnswerOrTimeSaysOnlyWhatItKnows() {
    assertEquals(
        "not tried yet by the syncer",
        container(
                withTheStatus(
                    new CredentialStatus("quay.io/acme/app", "quay.io", null, null, null)),
                "app")
            .credential());
    assertEquals(
        "REFUSED by quay.io",
        container(
                withTheStatus(
                    new CredentialStatus("quay.io/acme/app", "quay.io", "Refused", null, null)),
                "app")
            .credential());
  }

  /** The rewritten pod explained under an Always alternative whose status holds this credential. */
  private static Explanation withTheStatus(CredentialStatus status) {
    return new Explainer(SETTINGS, Explainer.NOT_PROBING)
        .explain(
            inputs(
                rewrittenPod(),
                true,
                Optional.of(Map.of()),
                List.of(alternative("Always")),
                Map.of(new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme"), List.of(status))));
  }

  @Test
  void anInvalidResourceOfTheSameNameRewritesNothingItCouldInject() {
    Validated invalid =
        new Validated.Invalid(
            new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme"),
            List.of(new io.kuik.model.Problem("spec", "broken")));
    Explanation e =
        new Explainer(SETTINGS, Explainer.NOT_PROBING).explain(stored(List.of(invalid)));

    ContainerExplanation app = container(e, "app");
    assertEquals("ImageAlternative/acme", app.rewrittenBy(), "as the pod's annotation says");
    assertNull(app.entry(), "no valid resource to find the entry in");
    assertNull(app.pullSecret());
  }

  @Test
  void thePodAsSubmittedHasItsOriginalImagesAndNoneOfKuiksMarks() {
    Pod submitted = Explainer.submitted(rewrittenPod(), true);

    assertEquals("docker.io/acme/app:1.0", submitted.getSpec().getContainers().get(0).getImage());
    assertEquals(
        "docker.io/library/busybox:1.36", submitted.getSpec().getContainers().get(1).getImage());
    assertEquals(
        "docker.io/acme/app:0.9", submitted.getSpec().getInitContainers().get(0).getImage());
    assertEquals(Map.of("team", "kept"), submitted.getMetadata().getAnnotations());
    assertEquals(
        java.util.Arrays.asList("own-pull", null),
        submitted.getSpec().getImagePullSecrets().stream().map(r -> r.getName()).toList(),
        "kuik's reference goes, the pod's own stay");

    Pod stored = rewrittenPod();
    assertEquals(
        "quay.io/acme/app:1.0",
        stored.getSpec().getContainers().get(0).getImage(),
        "the stored pod is left as it was");
    Pod template = template();
    assertEquals(template, Explainer.submitted(template, false), "a template is as submitted");
    Pod unannotated = template();
    unannotated
        .getSpec()
        .setImagePullSecrets(
            List.of(new io.fabric8.kubernetes.api.model.LocalObjectReference("kuik-inject-x")));
    assertEquals(
        unannotated, Explainer.submitted(unannotated, true), "no original images: nothing to undo");
  }

  /** A Deployment's template in a served namespace, under an OnFailure alternative. */
  private static ExplainInputs anOnFailureTemplate() {
    return inputs(
        template(),
        false,
        Optional.of(Map.of("tier", "prod")),
        List.of(alternative("OnFailure")),
        Map.of());
  }
}
