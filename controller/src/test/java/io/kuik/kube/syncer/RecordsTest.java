package io.kuik.kube.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kuik.model.ObservedNamespace;
import io.kuik.model.ResourceId;
import io.kuik.model.RewrittenPod;
import io.kuik.model.RewrittenPod.RewrittenContainer;
import io.kuik.model.RoutingKind;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What the syncer keeps of a pod and a namespace, read from fabric8's objects: every kind of
 * container the webhook may have rewritten (init, app, ephemeral), the gate's place among the
 * scheduling gates, the phase and a deletion; and the objects the informer's cache is given back,
 * which read as the same records.
 */
class RecordsTest {

  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");
  private static final ResourceId MIRROR = new ResourceId(RoutingKind.IMAGE_MIRROR, "mirror");

  @Test
  void aPodsRecordHoldsEveryRewrittenContainerItsGateItsPhaseAndItsDeletion() {
    Pod pod =
        YAML.unmarshal(
            """
            apiVersion: v1
            kind: Pod
            metadata:
              name: web
              namespace: team-a
              uid: u-1
              deletionTimestamp: "2026-01-01T00:00:00Z"
              annotations:
                kuik.enix.io/rewritten-by: '{"init":"ImageAlternative/acme","app":"ImageMirror/mirror","debug":"ImageAlternative/acme"}'
            spec:
              schedulingGates: [{name: example.com/quota}, {name: kuik.enix.io/pull-secret}]
              initContainers: [{name: init, image: "quay.io/acme/init:1"}]
              containers:
              - {name: app, image: "registry.example.com/mirror/app:1"}
              - {name: sidecar, image: "busybox:1.36"}
              ephemeralContainers: [{name: debug, image: "quay.io/acme/debug:1"}]
            status: {phase: Running}
            """,
            Pod.class);

    RewrittenPod record = Records.pod(pod);

    assertEquals(
        new RewrittenPod(
            "team-a",
            "web",
            "u-1",
            "Running",
            true,
            Map.of(
                "init", new RewrittenContainer(ACME, "quay.io/acme/init:1"),
                "app", new RewrittenContainer(MIRROR, "registry.example.com/mirror/app:1"),
                "debug", new RewrittenContainer(ACME, "quay.io/acme/debug:1")),
            1),
        record);
    assertTrue(record.gated());
    assertFalse(record.live(), "a pod being deleted is not live");
  }

  @Test
  void aPodWithoutSpecStatusOrGateIsStillARecord() {
    Pod bare =
        YAML.unmarshal(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: team-a}\n", Pod.class);
    RewrittenPod record = Records.pod(bare);
    assertEquals(new RewrittenPod("team-a", "web", null, null, false, Map.of(), -1), record);

    Pod ungated =
        YAML.unmarshal(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: team-a}\n"
                + "spec: {schedulingGates: [{name: example.com/quota}]}\n",
            Pod.class);
    assertFalse(Records.pod(ungated).gated());
  }

  @ParameterizedTest(name = "phase {0}, terminating {1}, gate at {2}")
  @CsvSource({"Pending, false, 0", "Running, true, -1", "Succeeded, false, 2", ", false, 1"})
  void thePodGivenBackToTheCacheReadsAsTheSameRecord(String phase, boolean terminating, int gate) {
    RewrittenPod record =
        new RewrittenPod(
            "team-a",
            "web",
            "u-1",
            phase,
            terminating,
            Map.of(
                "app", new RewrittenContainer(ACME, "quay.io/acme/app:1"),
                "sidecar", new RewrittenContainer(MIRROR, "registry.example.com/mirror/s:1")),
            gate);

    Pod pod = Records.pod(record, "42");

    assertEquals(record, Records.pod(pod));
    assertEquals("42", pod.getMetadata().getResourceVersion());
    assertEquals("true", pod.getMetadata().getLabels().get("kuik.enix.io/images-rewritten"));
  }

  @Test
  void aNamespaceReadsAsItsRecordAndBack() {
    Namespace namespace =
        YAML.unmarshal(
            "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a, labels: {tier: prod},"
                + " deletionTimestamp: \"2026-01-01T00:00:00Z\"}\n",
            Namespace.class);
    ObservedNamespace record = Records.namespace(namespace);
    assertEquals(new ObservedNamespace("team-a", Map.of("tier", "prod"), true), record);

    for (ObservedNamespace each :
        new ObservedNamespace[] {record, new ObservedNamespace("team-b", Map.of(), false)}) {
      Namespace back = Records.namespace(each, "7");
      assertEquals(each, Records.namespace(back));
      assertEquals("7", back.getMetadata().getResourceVersion());
    }
  }
}
