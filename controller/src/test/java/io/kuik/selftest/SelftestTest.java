package io.kuik.selftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.kuik.model.RewriteAnnotations;
import io.kuik.selftest.CheckResult.Result;
import io.kuik.selftest.SelftestCluster.DryRun;
import io.kuik.selftest.SelftestCluster.Read;
import io.kuik.selftest.SelftestCluster.Readyz;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Each check of {@link Selftest}, against a cluster whose answers the test sets. */
class SelftestTest {

  private final FakeSelftestCluster cluster = new FakeSelftestCluster();

  private SelftestReport run() {
    return Selftest.run(cluster, FakeSelftestCluster.settings());
  }

  private SelftestReport runWithPodCheck() {
    SelftestSettings plain = FakeSelftestCluster.settings();
    return Selftest.run(
        cluster,
        new SelftestSettings(
            plain.release(),
            plain.namespace(),
            plain.names(),
            plain.syncerReadyz(),
            plain.webhookReadyz(),
            new SelftestSettings.PodCheck("team-a", "quay.io/acme/app:1")));
  }

  private static void assertRow(SelftestReport report, String check, Result result, String why) {
    CheckResult row = report.row(check);
    assertEquals(result, row.result(), row::toString);
    assertTrue(row.why().contains(why), () -> "expected \"" + why + "\" in: " + row.why());
  }

  @Test
  void aHealthyReleasePassesEveryCheckAndSkipsThePodCheckItWasNotAskedFor() {
    SelftestReport report = run();

    assertTrue(report.passed(), report::text);
    assertEquals(
        List.of(
            "policy",
            "policy-binding",
            "reserved-names",
            "syncer-ready",
            "webhook-ready",
            "pod-rewritten",
            "credentials"),
        report.checks().stream().map(CheckResult::check).toList());
    assertRow(report, Selftest.POLICY, Result.PASS, "kuik-pull-secrets of release kuik");
    assertRow(
        report,
        Selftest.RESERVED_NAMES,
        Result.PASS,
        "refused by ValidatingAdmissionPolicy 'kuik-pull-secrets': Secrets named kuik-inject-*");
    assertRow(report, Selftest.SYNCER_READY, Result.PASS, "2 of 2 replicas available");
    assertRow(report, Selftest.POD_REWRITTEN, Result.SKIP, "--pod-namespace NS --image IMAGE");
  }

  @Test
  void theReservedNameAskedForIsASecretAsTheSyncerWritesThem() {
    run();

    Secret secret = (Secret) cluster.sent.get(0);
    assertEquals("kuik-inject-selftest", secret.getMetadata().getName());
    assertEquals("kuik-system", secret.getMetadata().getNamespace());
    assertEquals("kubernetes.io/dockerconfigjson", secret.getType());
    assertEquals(
        "kuik-secret-syncer", secret.getMetadata().getLabels().get("app.kubernetes.io/managed-by"));
  }

  @Test
  void aMissingPolicyFailsSayingWhatItLeavesOpen() {
    cluster.policy = Read.missing();

    SelftestReport report = run();

    assertFalse(report.passed());
    assertRow(
        report,
        Selftest.POLICY,
        Result.FAIL,
        "no ValidatingAdmissionPolicy kuik-pull-secrets: without it the syncer may write any Secret");
  }

  @Test
  void aPolicyOfAnotherReleaseFails() {
    cluster.policy = Read.found(FakeSelftestCluster.policy("other", "Fail"));

    assertRow(run(), Selftest.POLICY, Result.FAIL, "belongs to release other (kuik-system)");
  }

  @Test
  void aPolicyWithoutHelmsAnnotationsIsTheReleasesByTheChartsInstanceLabel() {
    var policy = FakeSelftestCluster.policy("kuik", "Fail");
    policy.getMetadata().setAnnotations(Map.of());
    policy.getMetadata().setLabels(Map.of("app.kubernetes.io/instance", "kuik"));
    cluster.policy = Read.found(policy);
    assertRow(run(), Selftest.POLICY, Result.PASS, "is installed");

    policy.getMetadata().setLabels(Map.of());
    assertRow(run(), Selftest.POLICY, Result.FAIL, "carries neither meta.helm.sh/release-name");
  }

  @Test
  void aPolicyThatFailsOpenFails() {
    cluster.policy = Read.found(FakeSelftestCluster.policy("kuik", "Ignore"));

    assertRow(run(), Selftest.POLICY, Result.FAIL, "failurePolicy Ignore");
  }

  @Test
  void aBindingThatIsMissingAuditsOnlyOrBindsAnotherPolicyFails() {
    cluster.binding = Read.missing();
    assertRow(run(), Selftest.POLICY_BINDING, Result.FAIL, "enforces nothing");

    cluster.binding = Read.found(FakeSelftestCluster.binding("kuik-pull-secrets", "Audit"));
    assertRow(run(), Selftest.POLICY_BINDING, Result.FAIL, "without Deny");

    cluster.binding = Read.found(FakeSelftestCluster.binding("something-else", "Deny"));
    assertRow(run(), Selftest.POLICY_BINDING, Result.FAIL, "binds policy something-else");
  }

  @Test
  void aPolicyThatCannotBeReadFailsWithTheApiServersWords() {
    cluster.policy = Read.failed(403, "validatingadmissionpolicies is forbidden: User \"x\"");

    assertRow(run(), Selftest.POLICY, Result.FAIL, "cannot read ValidatingAdmissionPolicy");
    assertRow(
        run(), Selftest.POLICY, Result.FAIL, "(403): validatingadmissionpolicies is forbidden");
  }

  @Test
  void anAdmittedDryRunOfAReservedNameFails() {
    cluster.dryRun = object -> DryRun.admitted(object);

    assertRow(run(), Selftest.RESERVED_NAMES, Result.FAIL, "admitted a dry-run create");
  }

  @Test
  void anRbacRefusalOfTheDryRunFailsSayingThePolicyWasNotTried() {
    cluster.dryRun =
        object ->
            DryRun.refused(
                403,
                "Forbidden",
                "secrets is forbidden: User \"system:serviceaccount:kuik-system:kuik-selftest\""
                    + " cannot create resource \"secrets\" in API group \"\"");

    assertRow(run(), Selftest.RESERVED_NAMES, Result.FAIL, "so the policy was not tried");
  }

  @Test
  void aRefusalByAnotherReleasesPolicyIsAWarning() {
    cluster.dryRun =
        object ->
            DryRun.refused(
                403,
                "Forbidden",
                "secrets \"kuik-inject-selftest\" is forbidden: ValidatingAdmissionPolicy"
                    + " 'shard-b-pull-secrets' with binding 'shard-b-pull-secrets' denied request:"
                    + " no");

    SelftestReport report = run();

    assertRow(report, Selftest.RESERVED_NAMES, Result.WARN, "by another policy");
    assertTrue(report.passed(), "a warning does not fail the selftest");
  }

  @Test
  void anyOtherAnswerToTheDryRunFails() {
    cluster.dryRun = object -> DryRun.refused(400, "BadRequest", "dryRun is not supported");

    assertRow(run(), Selftest.RESERVED_NAMES, Result.FAIL, "answered 400 BadRequest");
  }

  /**
   * "0 of 2 replicas available" says nothing: the row names why, in the pods' own words (their
   * {@code /readyz}), so that a syncer told a policy that does not exist is named as such.
   */
  @Test
  void aComponentWithoutAvailableReplicasIsNamedWhyByItsPodsReadyz() {
    cluster.deployments.put(
        "kuik-secret-syncer",
        Read.found(FakeSelftestCluster.deployment("kuik-secret-syncer", 2, 0)));
    cluster.pods =
        Read.found(
            List.of(
                new SelftestCluster.PodReadyz(
                    "kuik-secret-syncer-7d9f-a",
                    SelftestCluster.Readyz.notReady(
                        503,
                        "writes held: the ValidatingAdmissionPolicy kuik-pull-secrets does not"
                            + " exist")),
                new SelftestCluster.PodReadyz(
                    "kuik-secret-syncer-7d9f-b",
                    SelftestCluster.Readyz.unreachable("connection refused"))));

    assertRow(
        run(),
        Selftest.SYNCER_READY,
        Result.FAIL,
        "0 of 2 replicas available; pod kuik-secret-syncer-7d9f-a: /readyz answered 503: writes"
            + " held: the ValidatingAdmissionPolicy kuik-pull-secrets does not exist; pod"
            + " kuik-secret-syncer-7d9f-b: /readyz not reachable (connection refused)");
  }

  @Test
  void aComponentWithoutAvailableReplicasOrDeploymentFails() {
    cluster.deployments.put(
        "kuik-webhook", Read.found(FakeSelftestCluster.deployment("kuik-webhook", 2, 0)));
    assertRow(run(), Selftest.WEBHOOK_READY, Result.FAIL, "0 of 2 replicas available");

    cluster.deployments.put(
        "kuik-webhook", Read.found(FakeSelftestCluster.deployment("kuik-webhook", 0, 0)));
    assertRow(run(), Selftest.WEBHOOK_READY, Result.FAIL, "scaled to 0");

    cluster.deployments.remove("kuik-secret-syncer");
    assertRow(
        run(), Selftest.SYNCER_READY, Result.FAIL, "no Deployment kuik-system/kuik-secret-syncer");
  }

  @Test
  void aComponentWithoutAvailableReplicasSaysWhatItsDeploymentSaysAndWhyItsPodsCannotBeRead() {
    cluster.deployments.put(
        "kuik-webhook",
        Read.found(
            new DeploymentBuilder(FakeSelftestCluster.deployment("kuik-webhook", 2, 0))
                .editStatus()
                .addNewCondition()
                .withType("Progressing")
                .withMessage("ReplicaSet kuik-webhook-5c9 is progressing.")
                .endCondition()
                .addNewCondition()
                .withType("Available")
                .withMessage("Deployment does not have minimum availability.")
                .endCondition()
                .endStatus()
                .build()));
    cluster.pods = Read.failed(403, "pods is forbidden");

    assertEquals(
        "Deployment kuik-system/kuik-webhook: 0 of 2 replicas available (Deployment does not have"
            + " minimum availability.); cannot read its pods (403): pods is forbidden",
        run().row(Selftest.WEBHOOK_READY).why());

    cluster.pods = Read.missing();
    cluster.deployments.put(
        "kuik-webhook", Read.found(FakeSelftestCluster.deployment("kuik-webhook", 2, 0)));
    assertEquals(
        "Deployment kuik-system/kuik-webhook: 0 of 2 replicas available",
        run().row(Selftest.WEBHOOK_READY).why(),
        "no condition and no pods to ask: the count alone");
  }

  @Test
  void aDeploymentThatCannotBeReadFailsAndWithoutAReadyzURLTheReplicasAlonePass() {
    cluster.deployments.put("kuik-secret-syncer", Read.failed(403, "deployments is forbidden"));
    assertRow(
        run(),
        Selftest.SYNCER_READY,
        Result.FAIL,
        "cannot read Deployment kuik-system/kuik-secret-syncer (403): deployments is forbidden");

    SelftestSettings plain = FakeSelftestCluster.settings();
    SelftestReport withoutUrls =
        Selftest.run(
            cluster,
            new SelftestSettings(
                plain.release(), plain.namespace(), plain.names(), null, null, null));
    assertEquals(
        "Deployment kuik-system/kuik-webhook: 2 of 2 replicas available",
        withoutUrls.row(Selftest.WEBHOOK_READY).why());
  }

  @Test
  void readyzFailsOnlyWhenItAnswersNotReady() {
    cluster.readyz = Readyz.notReady(503, "informers not synced");
    assertRow(run(), Selftest.SYNCER_READY, Result.FAIL, "answered 503: informers not synced");

    cluster.readyz = Readyz.unreachable("UnresolvedAddressException");
    assertRow(run(), Selftest.SYNCER_READY, Result.PASS, "only the replicas were checked");
  }

  @Test
  void aRewrittenPodReferencingItsSecretPasses() {
    cluster.dryRun = SelftestTest::webhookRewrites;

    SelftestReport report = runWithPodCheck();

    assertRow(
        report,
        Selftest.POD_REWRITTEN,
        Result.PASS,
        "rewritten to registry.example.com/acme/app:1 by ImageAlternative/acme, referencing"
            + " kuik-inject-imagealternative-acme");
    Pod sent = (Pod) cluster.sent.get(1);
    assertEquals("team-a", sent.getMetadata().getNamespace());
    assertEquals("quay.io/acme/app:1", sent.getSpec().getContainers().get(0).getImage());
    assertEquals(
        Boolean.TRUE,
        sent.getSpec().getContainers().get(0).getSecurityContext().getRunAsNonRoot(),
        "the pod passes the restricted Pod Security level");
  }

  @Test
  void aPodThatComesBackUnchangedOrWithoutItsSecretFails() {
    cluster.dryRun = FakeSelftestCluster::policyRefusesSecrets;
    assertRow(runWithPodCheck(), Selftest.POD_REWRITTEN, Result.FAIL, "came back unchanged");

    cluster.dryRun =
        object -> {
          DryRun rewritten = webhookRewrites(object);
          if (rewritten.admitted() instanceof Pod pod) {
            pod.getSpec().setImagePullSecrets(List.of());
          }
          return rewritten;
        };
    assertRow(
        runWithPodCheck(),
        Selftest.POD_REWRITTEN,
        Result.FAIL,
        "references no kuik-inject-imagealternative-acme");
  }

  @Test
  void aRefusedPodFails() {
    cluster.dryRun =
        object ->
            object instanceof Pod
                ? DryRun.refused(403, "Forbidden", "violates PodSecurity \"restricted:latest\"")
                : FakeSelftestCluster.policyRefusesSecrets(object);

    assertRow(runWithPodCheck(), Selftest.POD_REWRITTEN, Result.FAIL, "PodSecurity");
  }

  @Test
  void aRefusedCredentialFailsAndAnUnknownOneWarns() {
    cluster.routing =
        Read.found(
            List.of(
                FakeSelftestCluster.withCredentials(
                    "ImageAlternative", "acme", "True", "quay.io/acme/app: accepted"),
                FakeSelftestCluster.withCredentials(
                    "ImageMirror", "mirror", "Unknown", "registry.example.com: unreachable")));
    SelftestReport warned = run();
    assertRow(
        warned, Selftest.CREDENTIALS, Result.WARN, "ImageMirror/mirror: registry.example.com");
    assertTrue(warned.passed());

    cluster.routing =
        Read.found(
            List.of(
                FakeSelftestCluster.withCredentials(
                    "ImageAlternative", "acme", "False", "quay.io/acme/app: refused (401)")));
    SelftestReport failed = run();
    assertRow(
        failed,
        Selftest.CREDENTIALS,
        Result.FAIL,
        "ImageAlternative/acme: quay.io/acme/app: refused");
    assertFalse(failed.passed());
  }

  @Test
  void withoutTheCrdsOrTheRightToReadThemTheCredentialsCheckFails() {
    cluster.routing = Read.missing();
    assertRow(
        run(),
        Selftest.CREDENTIALS,
        Result.FAIL,
        "serves no ImageAlternative or ImageMirror: the CRDs are not installed (crds.enabled)");

    cluster.routing = Read.failed(403, "imagealternatives is forbidden");
    assertRow(
        run(),
        Selftest.CREDENTIALS,
        Result.FAIL,
        "cannot read the ImageAlternatives and ImageMirrors (403): imagealternatives is forbidden");
  }

  @Test
  void theCredentialsCheckCountsTheResourcesWhoseCredentialWasAcceptedAndOnlyThose() {
    GenericKubernetesResource noStatus =
        new GenericKubernetesResourceBuilder()
            .withKind("ImageMirror")
            .withNewMetadata()
            .withName("new")
            .endMetadata()
            .build();
    GenericKubernetesResource noConditions =
        new GenericKubernetesResourceBuilder(noStatus)
            .addToAdditionalProperties("status", Map.of("observedGeneration", 1))
            .build();
    GenericKubernetesResource otherCondition =
        new GenericKubernetesResourceBuilder(noStatus)
            .addToAdditionalProperties(
                "status", Map.of("conditions", List.of(Map.of("type", "Valid", "status", "False"))))
            .build();
    cluster.routing = Read.found(List.of(noStatus, noConditions, otherCondition));
    assertRow(
        run(),
        Selftest.CREDENTIALS,
        Result.PASS,
        "no ImageAlternative or ImageMirror reports a credential to try");

    GenericKubernetesResource acme =
        FakeSelftestCluster.withCredentials("ImageAlternative", "acme", "True", "accepted");
    cluster.routing = Read.found(List.of(noStatus, acme));
    assertEquals(
        "the registries accepted the credentials of 1 resource",
        run().row(Selftest.CREDENTIALS).why());

    cluster.routing =
        Read.found(
            List.of(
                acme,
                FakeSelftestCluster.withCredentials("ImageMirror", "m", "True", "accepted"),
                otherCondition));
    assertEquals(
        "the registries accepted the credentials of 2 resources",
        run().row(Selftest.CREDENTIALS).why());
  }

  @Test
  void theReportPrintsOneRowPerCheckAndAsJson() {
    cluster.policy = Read.missing();
    SelftestReport report = run();

    String text = report.text();
    assertTrue(text.startsWith("CHECK"), text);
    assertEquals(1 + 7 + 2, text.lines().count(), text);
    assertTrue(text.contains("\npolicy          fail    no ValidatingAdmissionPolicy"), text);
    assertTrue(text.endsWith("selftest FAILED: 1 check failed\n"), text);

    JsonNode json = JsonMapper.builder().build().readTree(report.json());
    assertFalse(json.get("passed").asBoolean());
    assertEquals(7, json.get("checks").size());
    assertEquals("fail", json.get("checks").get(0).get("result").asString());
    assertEquals("policy", json.get("checks").get(0).get("check").asString());
  }

  /** The webhook's answer: the image routed to the alternative, and the pod given its Secret. */
  private static DryRun webhookRewrites(HasMetadata object) {
    if (!(object instanceof Pod pod)) {
      return FakeSelftestCluster.policyRefusesSecrets(object);
    }
    Pod rewritten = new PodBuilder(pod).build();
    rewritten.getSpec().getContainers().get(0).setImage("registry.example.com/acme/app:1");
    rewritten
        .getMetadata()
        .setAnnotations(
            Map.of(
                RewriteAnnotations.REWRITTEN_BY,
                RewriteAnnotations.writeMap(Map.of("selftest", "ImageAlternative/acme"))));
    rewritten
        .getSpec()
        .setImagePullSecrets(
            List.of(
                new io.fabric8.kubernetes.api.model.LocalObjectReference(
                    "kuik-inject-imagealternative-acme")));
    return DryRun.admitted(rewritten);
  }
}
