package io.kuik.syncer;

import static io.kuik.syncer.SyncerHarness.alternative;
import static io.kuik.syncer.SyncerHarness.pod;
import static io.kuik.syncer.SyncerHarness.repository;
import static io.kuik.syncer.SyncerHarness.selector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.kuik.model.DockerConfig;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pods that only look rewritten (docs/behaviour.md#which-rewrites-count), end to end on the core: a
 * claim the webhook could not have made draws no credential, not even for a grace, and each such
 * pod is reported once, on the pod, and counted.
 */
class RewriteClaimsTest {

  static final String FOO = "quay.io/acme/foo";
  static final String SECRET = "kuik-inject-imagealternative-acme";
  static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");
  static final ResourceId GHOST = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "ghost");

  private final SyncerHarness cluster =
      new SyncerHarness(SyncerSettings.defaults(SyncerHarness.CLUSTER_RESOURCE_NAMESPACE));

  private void install() {
    cluster.source(
        "acme-pull", new DockerConfig(Map.of("quay.io/acme", RegistryCredential.basic("a", "b"))));
    cluster.resource(
        alternative(
            "acme",
            RewritePolicy.ON_FAILURE,
            selector("team", "o"),
            repository(0, FOO, "acme-pull")));
    cluster.applyNamespace("team-o", "team=o");
    cluster.applyNamespace("tenant", "team=x");
    cluster.start().advanceSeconds(2);
  }

  private long counted(String reason) {
    return cluster.syncer().counters().rewritesNotRecognized().get(reason);
  }

  @Test
  void aForgedPodOutsideTheSelectorDrawsNothingAndIsReportedOnceOnThePod() {
    install();
    cluster.pod(pod("tenant", "forged", ACME, "Running", FOO + ":1.0"));
    cluster.advanceSeconds(2);

    assertEquals(Optional.empty(), cluster.keys("tenant", SECRET));
    assertEquals(1, cluster.podEvents().size());
    SyncerHarness.PodEvent event = cluster.podEvents().get(0);
    assertEquals("tenant", event.namespace());
    assertEquals("forged", event.pod());
    assertEquals("uid-tenant-forged", event.uid(), "kubectl describe pod finds it by uid");
    assertEquals(ClaimReports.REASON, event.reason());
    assertTrue(
        event
            .message()
            .startsWith(
                "container c0 claims a rewrite by ImageAlternative/acme, but the namespaceSelector"
                    + " of ImageAlternative/acme does not select namespace tenant"),
        event.message());
    assertEquals(1, counted("NamespaceNotSelected"));

    // Changed, and looked at again by a resync: still one report for this pod.
    cluster.pod(pod("tenant", "forged", ACME, "Pending", FOO + ":1.0"));
    cluster.advance(SyncerSettings.DEFAULT_RESYNC_PERIOD.plusSeconds(2));
    assertEquals(1, cluster.podEvents().size());
    assertEquals(1, counted("NamespaceNotSelected"));
  }

  @Test
  void aPodWithAForeignImageInTheSelectedNamespaceDrawsNothing() {
    install();
    cluster.pod(pod("team-o", "foreign", ACME, "Running", "docker.io/evil/x:1"));
    cluster.advanceSeconds(2);

    assertEquals(Optional.empty(), cluster.keys("team-o", SECRET));
    assertEquals(1, counted("ImageNotCovered"));
    assertTrue(
        cluster
            .podEvents()
            .get(0)
            .message()
            .contains(
                "its image docker.io/evil/x:1 is under none of the entries of"
                    + " ImageAlternative/acme"));
  }

  @Test
  void aPodClaimingAResourceThatDoesNotExistIsReported() {
    install();
    cluster.pod(pod("team-o", "ghostly", GHOST, "Running", FOO + ":1.0"));
    cluster.advanceSeconds(2);

    assertEquals(1, counted("NoSuchResource"));
    assertTrue(
        cluster.podEvents().get(0).message().contains("ImageAlternative/ghost does not exist"));
  }

  @Test
  void aForgedPodCreatedAndDeletedAtOnceStartsNoGrace() {
    install();
    cluster.pod(pod("tenant", "forged", ACME, "Running", FOO + ":1.0"));
    cluster.advanceSeconds(0.1);
    cluster.deletePod("tenant", "forged");
    cluster.advanceSeconds(2);

    assertEquals(Optional.empty(), cluster.keys("tenant", SECRET));
    assertTrue(cluster.applies("tenant").isEmpty(), "not even an empty Secret");
  }

  @ParameterizedTest(name = "its deletion seen: {0}")
  @ValueSource(booleans = {true, false}) // unseen: a relist shows the new pod as a change
  void aRecreatedPodOfTheSameNameIsAnotherPodAndIsReportedAgain(boolean deletionSeen) {
    install();
    cluster.pod(pod("tenant", "forged", ACME, "Running", FOO + ":1.0"));
    cluster.advanceSeconds(2);
    if (deletionSeen) {
      cluster.deletePod("tenant", "forged");
    }
    Pod again = pod("tenant", "forged", ACME, "Running", FOO + ":1.0");
    again.getMetadata().setUid("uid-tenant-forged-2");
    cluster.pod(again);
    cluster.advanceSeconds(2);

    assertEquals(
        List.of("uid-tenant-forged", "uid-tenant-forged-2"),
        cluster.podEvents().stream().map(SyncerHarness.PodEvent::uid).toList());
  }

  @Test
  void aPodKnownByNameOnlyIsReportedAgainOnceDeletedAndCreatedAgain() {
    install();
    Pod forged = pod("tenant", "forged", ACME, "Running", FOO + ":1.0");
    forged.getMetadata().setUid(null);
    cluster.pod(forged);
    cluster.advanceSeconds(2);
    cluster.pod(forged);
    cluster.advanceSeconds(2);
    assertEquals(1, cluster.podEvents().size(), "one report while it lives");

    cluster.deletePod("tenant", "forged");
    cluster.pod(forged);
    cluster.advanceSeconds(2);

    assertEquals(2, cluster.podEvents().size());
  }

  @Test
  void aRecognizedPodIsNotReportedAndGetsItsCredential() {
    install();
    cluster.pod(pod("team-o", "web", ACME, "Running", FOO + ":1.0"));
    cluster.advanceSeconds(2);

    assertEquals(Optional.of(List.of(FOO)), cluster.keys("team-o", SECRET));
    assertEquals(List.of(), cluster.podEvents());
  }

  @Test
  void aFloodOfForgedPodsIsCountedWholeButItsEventsComeOutOfTheirOwnBudget() {
    install();
    for (int i = 0; i < 100; i++) {
      cluster.pod(pod("tenant", "forged-" + i, ACME, "Running", FOO + ":1.0"));
    }
    cluster.advanceSeconds(2);

    assertEquals(100, counted("NamespaceNotSelected"));
    assertEquals(ClaimReports.EVENT_BURST, cluster.podEvents().size());

    // The budget refills: a pod forged a minute later is told again.
    cluster.advance(Duration.ofMinutes(1));
    cluster.pod(pod("tenant", "later", ACME, "Running", FOO + ":1.0"));
    cluster.advanceSeconds(2);
    assertEquals("later", cluster.podEvents().get(cluster.podEvents().size() - 1).pod());
  }
}
