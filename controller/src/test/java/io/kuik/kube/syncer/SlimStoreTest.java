package io.kuik.kube.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kuik.kube.SlimStore;
import io.kuik.model.ObservedNamespace;
import io.kuik.model.ResourceId;
import io.kuik.model.RewrittenPod;
import io.kuik.model.RoutingKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The informers' caches of the syncer keep the core's records, not the objects, and what they hand
 * back to fabric8 reads as the same record: the handlers see the same before and after as with
 * fabric8's own store.
 */
class SlimStoreTest {

  private static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");

  /** A pod as the API server sends it, with much the syncer does not read. */
  private static Pod pod(String name, String phase, boolean deleting) {
    PodBuilder pod =
        new PodBuilder()
            .withNewMetadata()
            .withNamespace("team-a")
            .withName(name)
            .withResourceVersion("41")
            .withUid("u-" + name)
            .addToLabels("app", "web")
            .addToLabels("kuik.enix.io/images-rewritten", "true")
            .addToAnnotations("kuik.enix.io/rewritten-by", "{\"app\":\"ImageAlternative/acme\"}")
            .addToAnnotations("kuik.enix.io/original-images", "{\"app\":\"docker.io/acme/app:1\"}")
            .addToAnnotations("kubectl.kubernetes.io/last-applied-configuration", "x".repeat(4000))
            .endMetadata()
            .withNewSpec()
            .addNewInitContainer()
            .withName("init")
            .withImage("busybox:1")
            .endInitContainer()
            .addNewContainer()
            .withName("app")
            .withImage("quay.io/acme/app:1")
            .addNewEnv()
            .withName("A")
            .withValue("b")
            .endEnv()
            .endContainer()
            .addNewContainer()
            .withName("sidecar")
            .withImage("envoy:1")
            .endContainer()
            .endSpec()
            .withNewStatus()
            .withPhase(phase)
            .endStatus();
    if (deleting) {
      pod.editMetadata().withDeletionTimestamp("2026-12-01T00:00:00Z").endMetadata();
    }
    return pod.build();
  }

  private static SlimStore<Pod, RewrittenPod> podStore() {
    return new SlimStore<>(Records::pod, Records::pod, RewrittenPod::namespace, RewrittenPod::name);
  }

  @Test
  void aPodIsKeptAsItsRewrittenContainersOnly() {
    RewrittenPod record = Records.pod(pod("web-1", "Running", false));

    assertEquals(
        new RewrittenPod(
            "team-a",
            "web-1",
            "u-web-1",
            "Running",
            false,
            Map.of("app", new RewrittenPod.RewrittenContainer(ACME, "quay.io/acme/app:1"))),
        record);
  }

  @ParameterizedTest(
      name = "if the phase is {0} and deleting is {1}, the rebuilt pod reads the same")
  @CsvSource({
    "Pending, false",
    "Running, false",
    "Succeeded, false",
    "Failed, false",
    "Running, true"
  })
  void whatTheStoreHandsBackReadsAsTheSameRecord(String phase, boolean deleting) {
    SlimStore<Pod, RewrittenPod> store = podStore();
    Pod pod = pod("web-1", phase, deleting);

    assertNull(store.put("team-a/web-1", pod), "nothing before");
    Pod rebuilt = store.get("team-a/web-1");

    assertEquals(Records.pod(pod), Records.pod(rebuilt));
    assertEquals("41", rebuilt.getMetadata().getResourceVersion(), "what the informer compares");
    assertEquals(Records.pod(pod), Records.pod(store.put("team-a/web-1", pod)), "the previous");
    assertEquals(Records.pod(pod), Records.pod(store.remove("team-a/web-1")), "the removed");
    assertEquals(0, store.size());
  }

  @Test
  void recordsAreReadByNamespaceAndLeaveWithTheirPod() {
    SlimStore<Pod, RewrittenPod> store = podStore();
    store.put("team-a/web-1", pod("web-1", "Running", false));
    store.put("team-a/web-2", pod("web-2", "Pending", false));

    assertEquals(
        List.of("web-1", "web-2"),
        store.group("team-a").stream().map(RewrittenPod::name).sorted().toList());
    assertEquals(List.of(), List.copyOf(store.group("team-b")));
    assertEquals(
        List.of("web-1", "web-2"),
        store.values().map(p -> p.getMetadata().getName()).sorted().toList(),
        "what fabric8 lists: every pod, rebuilt");

    store.remove("team-a/web-1");
    assertEquals(List.of("web-2"), store.group("team-a").stream().map(RewrittenPod::name).toList());
    assertEquals(List.of("team-a/web-2"), store.keySet().toList());
    store.remove("team-a/web-2");
    assertTrue(store.group("team-a").isEmpty());
  }

  /**
   * An update replaces the pod's record in its namespace: ungrouping the previous record after
   * grouping the new one (same namespace, same name) would drop the pod from the namespace, and its
   * OnFailure entries would be released 15 minutes later while it runs.
   */
  @Test
  void anUpdatedPodStaysInItsNamespaceWithItsNewRecord() {
    SlimStore<Pod, RewrittenPod> store = podStore();
    store.put("team-a/web-1", pod("web-1", "Pending", false));

    store.put("team-a/web-1", pod("web-1", "Running", false)); // its status, then a relist
    store.put("team-a/web-1", pod("web-1", "Running", false));

    assertEquals(
        List.of("Running"), store.group("team-a").stream().map(RewrittenPod::phase).toList());
    assertEquals(1, store.size());
  }

  @Test
  void aNamespaceIsKeptAsItsNameLabelsAndDeletion() {
    SlimStore<Namespace, ObservedNamespace> store =
        new SlimStore<>(Records::namespace, Records::namespace, null, null);
    Namespace namespace =
        new NamespaceBuilder()
            .withNewMetadata()
            .withName("team-a")
            .withResourceVersion("7")
            .addToLabels("tier", "prod")
            .withDeletionTimestamp("2026-12-01T00:00:00Z")
            .endMetadata()
            .withNewStatus()
            .withPhase("Terminating")
            .endStatus()
            .build();

    store.put("team-a", namespace);

    assertEquals(
        new ObservedNamespace("team-a", Map.of("tier", "prod"), true),
        store.record("team-a").orElseThrow());
    assertEquals(Records.namespace(namespace), Records.namespace(store.get("team-a")));
    assertEquals("7", store.get("team-a").getMetadata().getResourceVersion());
  }
}
