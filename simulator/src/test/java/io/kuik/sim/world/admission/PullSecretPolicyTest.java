package io.kuik.sim.world.admission;

import static io.kuik.sim.world.admission.AdmissionRequests.create;
import static io.kuik.sim.world.admission.AdmissionRequests.delete;
import static io.kuik.sim.world.admission.AdmissionRequests.update;
import static io.kuik.sim.world.admission.AdmissionRequests.yaml;
import static io.kuik.sim.world.admission.PullSecretPolicyTableTest.stored;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.chart.ChartFiles;
import io.kuik.sim.chart.Release;
import io.kuik.sim.world.admission.PullSecretPolicyTableTest.Change;
import io.kuik.sim.world.admission.PullSecretPolicyTableTest.NameClass;
import io.kuik.sim.world.admission.PullSecretPolicyTableTest.Where;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ValidatingAdmission.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The documented stories around the chart's pull-secret policy, and what its refusals say. */
class PullSecretPolicyTest {

  private static final Release RELEASE = Release.DEFAULT;
  private static final String POLICY = "kuik-pull-secrets";
  private static final Identity SYNCER =
      io.kuik.sim.hosts.SyncerHost.podIdentity("kuik-system", "kuik-secret-syncer");
  private static final Identity VELERO = Identity.serviceAccount("velero", "velero");
  private static final Identity HELM = Identity.serviceAccount("ci", "helm-deployer");
  private static final Identity ALICE = Identity.person("alice", "system:masters");

  private static List<ObjectNode> chartPolicy(Release release) {
    return ChartFiles.locate().load(ChartFiles.ADMISSION_POLICY, release);
  }

  private final PolicyAdmission admission =
      new PolicyAdmission(new InMemoryClusterState().putAll(chartPolicy(RELEASE)));

  private static ObjectNode secretIn(String namespace, String name) {
    ObjectNode secret = stored(NameClass.KUIK_INJECT, Where.OTHER_NAMESPACE);
    ((ObjectNode) secret.get("metadata")).put("namespace", namespace).put("name", name);
    return secret;
  }

  @Test
  void aVeleroRestoreOfAnInjectedSecretIsRefusedAndTheMessageSaysToExcludeThem() {
    Verdict verdict =
        admission.validate(create(VELERO, secretIn("team-a", "kuik-inject-imagemirror-prod")));

    assertFalse(verdict.admitted());
    assertTrue(
        verdict
            .message()
            .startsWith(
                "ValidatingAdmissionPolicy 'kuik-pull-secrets' with binding 'kuik-pull-secrets'"
                    + " denied request: Secrets named kuik-inject-* and kuik-provider-* are written"
                    + " only by the kuik secret-syncer"),
        verdict.message());
    assertTrue(
        verdict
            .message()
            .contains(
                "system:serviceaccount:velero:velero may not create team-a/kuik-inject-imagemirror-prod"),
        verdict.message());
    assertTrue(
        verdict
            .message()
            .contains(
                "exclude the Secrets labelled app.kubernetes.io/managed-by=kuik-secret-syncer from the backup"),
        verdict.message());
  }

  @Test
  void aKubectlReplaceOfEverySecretToRotateEncryptionPasses() {
    ObjectNode before = secretIn("team-a", "kuik-inject-imagemirror-prod");
    ObjectNode after = before.deepCopy();
    ((ArrayNode) after.get("metadata").get("managedFields"))
        .addObject()
        .put("manager", "kubectl-replace")
        .put("operation", "Update");

    assertTrue(admission.validate(update(ALICE, before, after)).admitted());
  }

  @Test
  void spellingOutADefaultIsNoChange() {
    ObjectNode before = secretIn("team-a", "kuik-inject-imagemirror-prod");
    ObjectNode after = before.deepCopy().put("immutable", false);

    assertTrue(admission.validate(update(ALICE, before, after)).admitted());
  }

  @Test
  void theGarbageCollectorMayRemoveOneOfSeveralOwnerReferencesButNotAddOne() {
    ObjectNode one = secretIn("team-a", "kuik-inject-imagemirror-prod");
    ObjectNode two = one.deepCopy();
    ((ArrayNode) two.get("metadata").get("ownerReferences"))
        .addObject()
        .put("apiVersion", "kuik.enix.io/v1alpha1")
        .put("kind", "ImageAlternative")
        .put("name", "acme")
        .put("uid", "77aa-3");

    assertTrue(admission.validate(update(Identity.GARBAGE_COLLECTOR, two, one)).admitted());
    assertFalse(admission.validate(update(Identity.GARBAGE_COLLECTOR, one, two)).admitted());
    assertFalse(admission.validate(update(ALICE, two, one)).admitted(), "only the collector");
  }

  @Test
  void aForeignChangeOfAnInjectedSecretSaysWhatToChangeInstead() {
    ObjectNode before = secretIn("team-a", "kuik-inject-imagemirror-prod");
    ObjectNode after = PullSecretPolicyTableTest.changed(before, Change.DATA);

    Verdict verdict = admission.validate(update(ALICE, before, after));

    assertTrue(
        verdict
            .message()
            .endsWith(
                "denied request: alice may not change the type, data, labels or immutability of"
                    + " team-a/kuik-inject-imagemirror-prod: it is written by the kuik"
                    + " secret-syncer. Change the ImageAlternative or ImageMirror, or its secretRef"
                    + " Secret in kuik-system, instead"),
        verdict.message());
  }

  @Test
  void theSyncersRefusalsSayWhichRuleItBroke() {
    ObjectNode opaque =
        PullSecretPolicyTableTest.changed(secretIn("team-a", "kuik-inject-x"), Change.TYPE);
    ObjectNode unlabelled =
        PullSecretPolicyTableTest.changed(secretIn("team-a", "kuik-inject-x"), Change.LABELS);
    ObjectNode misnamed = secretIn("team-a", "registry-pull");
    ObjectNode providerAbroad = secretIn("team-a", "kuik-provider-ecr");

    assertTrue(
        admission
            .validate(create(SYNCER, opaque))
            .message()
            .endsWith(
                "may only write Secrets of type kubernetes.io/dockerconfigjson, not Opaque"
                    + " (team-a/kuik-inject-x)"));
    assertTrue(
        admission
            .validate(create(SYNCER, unlabelled))
            .message()
            .contains("must carry the label app.kubernetes.io/managed-by: kuik-secret-syncer"));
    for (ObjectNode secret : List.of(misnamed, providerAbroad)) {
      assertTrue(
          admission
              .validate(create(SYNCER, secret))
              .message()
              .contains(
                  "may only write Secrets named kuik-inject-* (in any namespace) or kuik-provider-* (in"
                      + " kuik-system only)"));
    }
  }

  @Test
  void deletionsByAnyoneButTheSyncerSkipThePolicy() {
    for (var decision : admission.decisions(delete(VELERO, secretIn("team-a", "kuik-inject-x")))) {
      assertEquals(PolicyDecision.Outcome.SKIPPED, decision.outcome());
    }
    assertTrue(admission.validate(delete(VELERO, secretIn("team-a", "kuik-inject-x"))).admitted());
    assertTrue(
        admission
            .validate(delete(Identity.GARBAGE_COLLECTOR, secretIn("team-a", "kuik-inject-x")))
            .admitted());
  }

  @Test
  void theSyncersOwnDeletionsAreRefused() {
    var verdict = admission.validate(delete(SYNCER, secretIn("team-a", "kuik-inject-x")));

    assertFalse(verdict.admitted());
    assertEquals("Forbidden", verdict.reason());
    assertTrue(
        verdict
            .message()
            .endsWith(
                "denied request: the kuik secret-syncer never deletes a Secret"
                    + " (team-a/kuik-inject-x): it empties one that is no longer needed, and the"
                    + " garbage collector deletes its Secrets with their ImageAlternative or"
                    + " ImageMirror"),
        verdict.message());
  }

  @Test
  void everyOtherSecretWriteSkipsThePolicy() {
    ObjectNode helmRelease =
        yaml(
            """
            apiVersion: v1
            kind: Secret
            type: helm.sh/release.v1
            metadata: {name: sh.helm.release.v1.shop.v3, namespace: team-a, labels: {owner: helm}}
            data: {release: SDRzSQ==}
            """);

    var decisions = admission.decisions(create(HELM, helmRelease));

    assertEquals(1, decisions.size());
    assertEquals(PolicyDecision.Outcome.SKIPPED, decisions.get(0).outcome());
  }

  @Test
  void whenThePolicyCannotBeEvaluatedOnlyTheSyncerAndTheReservedNamesAreRefused() {
    admission.setEvaluationFailure(POLICY, true);
    ObjectNode helmRelease = secretIn("team-a", "sh.helm.release.v1.shop.v3");

    Verdict syncer = admission.validate(create(SYNCER, secretIn("team-a", "kuik-inject-x")));
    Verdict person =
        admission.validate(
            update(
                ALICE, secretIn("team-a", "kuik-inject-x"), secretIn("team-a", "kuik-inject-x")));
    Verdict helm = admission.validate(create(HELM, helmRelease));

    assertFalse(syncer.admitted());
    assertTrue(syncer.message().contains("resulted in error: CEL evaluation failed"));
    assertFalse(person.admitted(), "even a rotation by replace fails closed");
    assertTrue(helm.admitted(), "Helm's own Secrets skip the policy");
  }

  @Test
  void theProviderPrefixFollowsTheInstallNamespaceOfTheRelease() {
    var edge = new Release("edge", "kuik-edge");
    var edgeAdmission = new PolicyAdmission(new InMemoryClusterState().putAll(chartPolicy(edge)));
    var edgeSyncer = io.kuik.sim.hosts.SyncerHost.podIdentity("kuik-edge", "edge-secret-syncer");

    assertTrue(
        edgeAdmission
            .validate(create(edgeSyncer, secretIn("kuik-edge", "kuik-provider-ecr")))
            .admitted());
    assertFalse(
        edgeAdmission
            .validate(create(edgeSyncer, secretIn("kuik-system", "kuik-provider-ecr")))
            .admitted());
  }

  @Test
  void editingARuleInTheChartFileChangesTheOutcome() {
    List<ObjectNode> objects = chartPolicy(RELEASE);
    ObjectNode unlabelled =
        PullSecretPolicyTableTest.changed(secretIn("team-a", "kuik-inject-x"), Change.LABELS);
    assertFalse(
        new PolicyAdmission(new InMemoryClusterState().putAll(objects))
            .validate(create(SYNCER, unlabelled))
            .admitted(),
        "as shipped, the syncer must label what it writes");

    String labelCheck = "variables.managedBy == 'kuik-secret-syncer'";
    int edited = 0;
    for (JsonNode validation : objects.get(0).at("/spec/validations")) {
      String expression = validation.get("expression").asString();
      if (expression.contains(labelCheck)) {
        ((ObjectNode) validation).put("expression", expression.replace(labelCheck, "true"));
        edited++;
      }
    }
    assertEquals(1, edited, "the chart's label rule reads " + labelCheck);

    var editedAdmission = new PolicyAdmission(new InMemoryClusterState().putAll(objects));
    assertTrue(editedAdmission.validate(create(SYNCER, unlabelled)).admitted());
    assertNotEquals(chartPolicy(RELEASE).get(0), objects.get(0), "the edit stayed in memory");
  }
}
