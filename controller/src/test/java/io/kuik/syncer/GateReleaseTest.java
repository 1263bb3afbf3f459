package io.kuik.syncer;

import static io.kuik.syncer.SyncerHarness.alternative;
import static io.kuik.syncer.SyncerHarness.pod;
import static io.kuik.syncer.SyncerHarness.repository;
import static io.kuik.syncer.SyncerHarness.selector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.kuik.model.DockerConfig;
import io.kuik.model.PullSecretGate;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The core's release of the pull-secret gate (docs/decisions/0052-pull-secret-first.md): a gated
 * pod is released only once each Secret it pulls with was applied, and taken, with the content it
 * must hold now, the pod included; a refusal is retried; without the setting nothing is released.
 */
class GateReleaseTest {

  static final String FOO = "quay.io/acme/foo";
  static final String SECRET = "kuik-inject-imagealternative-acme";
  static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");

  private final SyncerHarness cluster =
      new SyncerHarness(SyncerHarness.noResync().withReleasesGates(true));

  private void install(RewritePolicy policy) {
    cluster.source("acme-pull", config("s3cret"));
    cluster.resource(
        alternative("acme", policy, selector("team", "a"), repository(0, FOO, "acme-pull")));
    cluster.applyNamespace("team-a", "team=a");
  }

  private static DockerConfig config(String password) {
    return new DockerConfig(Map.of("quay.io/acme", RegistryCredential.basic("acme", password)));
  }

  private static Pod gated(String name, String... otherGates) {
    Pod pod = pod("team-a", name, ACME, "Pending", FOO + ":1.0");
    List<PodSchedulingGate> gates = new ArrayList<>();
    for (String other : otherGates) {
      gates.add(new PodSchedulingGate(other));
    }
    gates.add(new PodSchedulingGate(PullSecretGate.NAME));
    pod.getSpec().setSchedulingGates(gates);
    return pod;
  }

  @Test
  void underOnFailureTheFirstRewriteIsReleasedAfterItsSecretIsAppliedAndTaken() {
    install(RewritePolicy.ON_FAILURE);
    cluster.start().advanceSeconds(2);
    assertEquals(List.of(), cluster.applies("team-a"), "OnFailure: nothing before the rewrite");

    cluster.pod(gated("web-1", "example.com/quota"));
    cluster.advanceSeconds(2);

    assertEquals(1, cluster.releases().size(), "" + cluster.releases());
    Effect.ReleaseGate release = cluster.releases().get(0);
    assertEquals("web-1", release.name());
    assertEquals("uid-team-a-web-1", release.uid());
    assertEquals(1, release.index(), "after the pod's own gate");
    assertTrue(cluster.stored("team-a", SECRET).isPresent());
    int released = cluster.effects().indexOf(release);
    assertTrue(
        cluster.effects().subList(0, released).stream()
            .anyMatch(e -> e instanceof Effect.ApplySecret),
        "the apply first");
  }

  @Test
  void aPodCreatedRightAfterARotationWaitsForTheRotatedContent() {
    install(RewritePolicy.ALWAYS);
    cluster.start().advanceSeconds(2);

    cluster.source("acme-pull", config("rotated"));
    cluster.pod(gated("web-1"));
    cluster.advance(Duration.ofMillis(100));
    assertEquals(List.of(), cluster.releases(), "the Secret still holds the old credential");
    cluster.advanceSeconds(2);

    assertEquals(1, cluster.releases().size());
    assertTrue(
        cluster
            .stored("team-a", SECRET)
            .orElseThrow()
            .auths()
            .containsValue(RegistryCredential.basic("acme", "rotated")));
  }

  @Test
  void aRefusedReleaseIsTriedAgainAfterTheBackoff() {
    install(RewritePolicy.ALWAYS);
    cluster.start().advanceSeconds(2);
    cluster.releasesAnswered(new Answer.Refused(503, "ServiceUnavailable", "later"));

    cluster.pod(gated("web-1"));
    cluster.advanceSeconds(1);
    assertEquals(1, cluster.releases().size());
    cluster.releasesAnswered(Answer.APPLIED);
    cluster.advanceSeconds(3);

    assertEquals(2, cluster.releases().size(), "tried again: " + cluster.releases());
    cluster.advanceSeconds(60);
    assertEquals(2, cluster.releases().size(), "and no more once taken");
  }

  @Test
  void aRestartedCoreReleasesThePodsLeftGatedAfterItsOwnApply() {
    install(RewritePolicy.ALWAYS);
    cluster.pod(gated("web-1"));

    cluster.start().advanceSeconds(2);

    assertEquals(1, cluster.releases().size());
  }

  @Test
  void withoutTheSettingNoGateIsReleased() {
    SyncerHarness plain = new SyncerHarness(SyncerHarness.noResync());
    plain.source("acme-pull", config("s3cret"));
    plain.resource(
        alternative(
            "acme", RewritePolicy.ALWAYS, selector("team", "a"), repository(0, FOO, "acme-pull")));
    plain.applyNamespace("team-a", "team=a");
    plain.pod(gated("web-1"));
    plain.start().advanceSeconds(5);

    assertTrue(plain.stored("team-a", SECRET).isPresent());
    assertEquals(List.of(), plain.releases());
  }

  @Test
  void aPodOfANamespaceAnotherInstanceServesIsLeftToThatInstance() {
    SyncerHarness other =
        new SyncerHarness(
            SyncerHarness.noResync()
                .withReleasesGates(true)
                .withTargeting(new Targeting(SyncerHarness.CLUSTER_RESOURCE_NAMESPACE, false)));
    other.source("acme-pull", config("s3cret"));
    other.resource(
        alternative(
            "acme", RewritePolicy.ALWAYS, selector("team", "a"), repository(0, FOO, "acme-pull")));
    other.applyNamespace("team-a", "team=a");
    other.pod(gated("web-1"));
    other.start().advanceSeconds(2);
    other.pod(gated("web-2"));
    other.advanceSeconds(5);

    assertTrue(other.stored("team-a", SECRET).isEmpty(), "not served here");
    assertEquals(List.of(), other.releases(), "the serving instance releases them");
  }
}
