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
  void aReleaseRefusedAsInvalidWaitsForThePodsNewsAndGoesAgainWithTheGateWhereItIsNow() {
    install(RewritePolicy.ALWAYS);
    cluster.start().advanceSeconds(2);
    cluster.releasesAnswered(new Answer.Refused(422, "Invalid", "the patch's test failed"));
    cluster.pod(gated("web-1"));
    cluster.advanceSeconds(1);
    assertEquals(1, cluster.releases().size());
    assertEquals(0, cluster.releases().get(0).index());

    cluster.advanceSeconds(60);
    assertEquals(1, cluster.releases().size(), "a failed test is not retried blind");
    assertEquals(1, cluster.syncer().podsGated(), "the pod still waits");

    cluster.releasesAnswered(Answer.APPLIED);
    cluster.pod(gated("web-1", "example.com/quota")); // another controller added its gate first
    assertEquals(2, cluster.releases().size(), "released again on the pod's news");
    assertEquals(1, cluster.releases().get(1).index(), "where the informer shows the gate now");
    cluster.advanceSeconds(1);
    assertEquals(0, cluster.syncer().podsGated(), "taken: forgotten");
  }

  @Test
  void aPodStillWaitingOnItsSecretIsNotReleasedWhenItChanges() {
    install(RewritePolicy.ALWAYS);
    cluster.serverAnswers(secret -> new Answer.Refused(403, "Forbidden", "not yet"));
    cluster.start().advanceSeconds(2);
    cluster.pod(gated("web-1"));
    cluster.advanceSeconds(1);

    cluster.pod(gated("web-1", "example.com/quota"));
    cluster.advanceSeconds(1);

    assertEquals(List.of(), cluster.releases(), "its Secret was refused");
    assertEquals(1, cluster.syncer().podsGated());
  }

  @Test
  void aWaitingPodThatGoesOrLosesItsGateIsNoLongerWaitedFor() {
    install(RewritePolicy.ALWAYS);
    cluster.serverAnswers(secret -> new Answer.Refused(403, "Forbidden", "not yet"));
    cluster.start().advanceSeconds(2);
    cluster.pod(gated("web-1"));
    cluster.pod(gated("web-2"));
    cluster.advanceSeconds(1);
    assertEquals(2, cluster.syncer().podsGated());

    cluster.deletePod("team-a", "web-1");
    cluster.pod(pod("team-a", "web-2", ACME, "Pending", FOO + ":1.0")); // its gate removed

    assertEquals(0, cluster.syncer().podsGated());
  }

  @Test
  void aGatedPodThatPullsNothingThroughKuikIsReleasedAtOnce() {
    install(RewritePolicy.ALWAYS);
    cluster.start().advanceSeconds(2);
    Pod plain = pod("team-a", "plain", null, "Pending", "docker.io/library/nginx:1.27");
    plain.getSpec().setSchedulingGates(List.of(new PodSchedulingGate(PullSecretGate.NAME)));

    cluster.pod(plain);

    assertEquals(1, cluster.releases().size(), "" + cluster.releases());
    assertEquals("plain", cluster.releases().get(0).name());
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

  private static Pod gatedPod(String namespace, String name, Map<String, ResourceId> images) {
    Pod pod = pod(namespace, name, null, "Pending");
    Map<String, String> by = new java.util.TreeMap<>();
    List<io.fabric8.kubernetes.api.model.Container> containers = new ArrayList<>();
    int i = 0;
    for (Map.Entry<String, ResourceId> image : images.entrySet()) {
      containers.add(
          new io.fabric8.kubernetes.api.model.ContainerBuilder()
              .withName("c" + i)
              .withImage(image.getKey())
              .build());
      by.put("c" + i++, image.getValue().toString());
    }
    pod.getSpec().setContainers(containers);
    pod.getMetadata()
        .setAnnotations(
            Map.of(
                io.kuik.model.RewriteAnnotations.REWRITTEN_BY,
                io.kuik.model.RewriteAnnotations.writeMap(by)));
    pod.getSpec().setSchedulingGates(List.of(new PodSchedulingGate(PullSecretGate.NAME)));
    return pod;
  }

  @Test
  void aPodRewrittenByTwoResourcesWaitsForBothSecrets() {
    ResourceId tools = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "tools");
    install(RewritePolicy.ALWAYS);
    cluster.source(
        "tools-pull",
        new DockerConfig(Map.of("quay.io/tools", RegistryCredential.basic("tools", "t00ls"))));
    cluster.resource(
        alternative(
            "tools",
            RewritePolicy.ALWAYS,
            selector("team", "a"),
            repository(0, "quay.io/tools/bar", "tools-pull")));
    cluster.serverAnswers(
        secret ->
            secret.getMetadata().getName().endsWith("-tools")
                ? new Answer.Refused(403, "Forbidden", "not yet")
                : Answer.APPLIED);
    cluster.start().advanceSeconds(2);

    cluster.pod(
        gatedPod(
            "team-a",
            "web-1",
            new java.util.LinkedHashMap<>(
                Map.of(FOO + ":1.0", ACME, "quay.io/tools/bar:1.0", tools))));
    cluster.advanceSeconds(10);
    assertEquals(List.of(), cluster.releases(), "its tools Secret was refused: still gated");

    cluster.serverAnswers(secret -> Answer.APPLIED);
    cluster.advanceSeconds(60);
    assertEquals(1, cluster.releases().size(), "" + cluster.releases());
  }

  @Test
  void aPodWhoseSecondContainerArrivesDuringAnApplyWaitsForTheApplyThatHoldsBothEntries()
      throws Exception {
    String bar = "quay.io/acme-other/bar";
    cluster.source("acme-pull", config("s3cret"));
    cluster.source(
        "other-pull",
        new DockerConfig(Map.of("quay.io/acme-other", RegistryCredential.basic("other", "0ther"))));
    cluster.resource(
        alternative(
            "acme",
            RewritePolicy.ON_FAILURE,
            selector("team", "a"),
            repository(0, FOO, "acme-pull"),
            repository(1, bar, "other-pull")));
    cluster.applyNamespace("team-a", "team=a");
    cluster.applyLatency(Duration.ofSeconds(1));
    cluster.start().advanceSeconds(1);
    cluster.pod(pod("team-a", "first", ACME, "Running", FOO + ":1.0"));
    cluster.advance(Duration.ofMillis(700)); // the first pod's apply is in flight

    cluster.pod(
        gatedPod(
            "team-a",
            "web-1",
            new java.util.LinkedHashMap<>(Map.of(FOO + ":1.0", ACME, bar + ":1.0", ACME))));
    cluster.advanceSeconds(10);

    assertEquals(1, cluster.releases().size(), "" + cluster.releases());
    int released = cluster.effects().indexOf(cluster.releases().get(0));
    Effect.ApplySecret last =
        (Effect.ApplySecret)
            cluster.effects().subList(0, released).stream()
                .filter(e -> e instanceof Effect.ApplySecret)
                .reduce((a, b) -> b)
                .orElseThrow();
    assertEquals(
        2,
        io.kuik.model.DockerConfigSecret.read(last.secret(), "test").auths().size(),
        "released after the apply that holds both of its entries");
  }

  @Test
  void releasesGoSeveralAtOnceWithinTheWriteBudgetAndInTurnAcrossNamespaces() {
    cluster.source("acme-pull", config("s3cret"));
    cluster.resource(
        alternative(
            "acme", RewritePolicy.ALWAYS, selector("team", "a"), repository(0, FOO, "acme-pull")));
    cluster.applyNamespace("flood", "team=a");
    cluster.applyNamespace("team-b", "team=a");
    for (int i = 0; i < 2_000; i++) {
      cluster.pod(gatedIn("flood", "hold-" + i));
    }
    cluster.applyLatency(Duration.ofMillis(200));
    cluster.start().advanceSeconds(5);
    int before = cluster.releases().size();

    cluster.pod(gatedIn("team-b", "web"));
    java.time.Instant created = cluster.now();
    cluster.advanceSeconds(5);

    List<java.time.Instant> at = cluster.releasedAt();
    long firstInstant = at.stream().filter(t -> t.equals(at.get(0))).count();
    assertEquals(
        SyncerSettings.DEFAULT_MAX_IN_FLIGHT, firstInstant, "as many at once as applies fly");
    double seconds = Duration.between(at.get(0), cluster.now()).toMillis() / 1000.0;
    assertTrue(
        at.size()
            <= SyncerSettings.DEFAULT_WRITE_BURST + SyncerSettings.DEFAULT_WRITE_QPS * seconds,
        at.size() + " releases in " + seconds + " s: within --api-qps and --api-burst");
    assertTrue(before > 0 && before < 2_000, "the flood still being released: " + before);
    int b = -1;
    for (int i = 0; i < cluster.releases().size(); i++) {
      if (cluster.releases().get(i).namespace().equals("team-b")) {
        b = i;
      }
    }
    assertTrue(b >= 0, "team-b's pod released");
    Duration waited = Duration.between(created, at.get(b));
    assertTrue(
        waited.compareTo(Duration.ofSeconds(2)) < 0,
        "team-b's pod released " + waited + " after its creation, beside 2,000 in flood");
  }

  private static Pod gatedIn(String namespace, String name) {
    Pod pod = pod(namespace, name, ACME, "Pending", FOO + ":1.0");
    pod.getSpec().setSchedulingGates(List.of(new PodSchedulingGate(PullSecretGate.NAME)));
    return pod;
  }
}
