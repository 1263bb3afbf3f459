package io.kuik.syncer;

import static io.kuik.syncer.SyncerHarness.alternative;
import static io.kuik.syncer.SyncerHarness.config;
import static io.kuik.syncer.SyncerHarness.pod;
import static io.kuik.syncer.SyncerHarness.repository;
import static io.kuik.syncer.SyncerHarness.selector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.DockerConfig;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The core end to end on fake ports: where a Secret lands, what it holds, and how it is released,
 * with the default settings (so that a changed default shows here) and the documented numbers as
 * this test's own constants.
 */
class SecretSyncerTest {

  /** The documented grace: an unused OnFailure entry stays 15 minutes. */
  static final Duration GRACE = Duration.ofMinutes(15);

  static final String FOO = "quay.io/acme/foo";
  static final String BAR = "ghcr.io/acme/bar";
  static final String SECRET = "kuik-inject-imagealternative-acme";
  static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");

  private SyncerHarness cluster = SyncerHarness.withDefaults();

  private void install(RewritePolicy policy) {
    cluster.source(
        "acme-pull",
        new DockerConfig(
            Map.of(
                "quay.io/acme", RegistryCredential.basic("acme", "s3cret"),
                "ghcr.io", RegistryCredential.basic("gh", "t0ken"))));
    cluster.resource(
        alternative(
            "acme",
            policy,
            selector("tier", "prod"),
            repository(0, FOO, "acme-pull"),
            repository(1, BAR, "acme-pull")));
  }

  private Optional<List<String>> keys(String namespace) {
    return cluster.keys(namespace, SECRET);
  }

  // ---- Always -----------------------------------------------------------------------------

  @Test
  void alwaysWritesEverySelectedNamespaceBeforeAnyPodExists() {
    cluster.applyNamespace("team-a", "tier=prod");
    cluster.applyNamespace("team-b", "tier=dev");
    install(RewritePolicy.ALWAYS);
    cluster.start().advanceSeconds(2);

    assertEquals(Optional.of(List.of(BAR, FOO)), keys("team-a"));
    assertEquals(
        Optional.of(RegistryCredential.basic("acme", "s3cret")),
        cluster.stored("team-a", SECRET).map(c -> c.auths().get(FOO)));
    assertEquals(Optional.empty(), keys("team-b"));
  }

  @ParameterizedTest(name = "a namespace labelled {0} on an instance serving by default: {1}")
  @CsvSource({
    "tier=prod, true",
    "tier=dev, false",
    "kuik.enix.io/pull-secrets-override=false, false",
    "kuik.enix.io/pull-secrets-instance=kuik-other, false",
    "kuik.enix.io/pull-secrets-instance=kuik-system, true",
  })
  void alwaysWritesWhereTheSelectorSelectsAndTheInstanceServes(String extra, boolean written) {
    cluster.applyNamespace("team-a", "tier=prod", extra);
    install(RewritePolicy.ALWAYS);
    cluster.start().advanceSeconds(2);
    assertEquals(written, keys("team-a").isPresent());
  }

  @Test
  void aNamespaceLeavingTheScopeIsEmptiedNotDeletedAndComesBackWhenItReturns() {
    cluster.applyNamespace("team-a", "tier=prod");
    install(RewritePolicy.ALWAYS);
    cluster.start().advanceSeconds(2);

    cluster.applyNamespace("team-a", "tier=dev");
    cluster.advanceSeconds(2);
    assertEquals(Optional.of(List.of()), keys("team-a"), "{\"auths\":{}}, not deleted");
    assertEquals("{\"auths\":{}}", cluster.stored("team-a", SECRET).orElseThrow().toJson());

    cluster.applyNamespace("team-a", "tier=prod", "kuik.enix.io/pull-secrets-override=false");
    cluster.advanceSeconds(2);
    assertEquals(Optional.of(List.of()), keys("team-a"));

    cluster.applyNamespace("team-a", "tier=prod");
    cluster.advanceSeconds(2);
    assertEquals(Optional.of(List.of(BAR, FOO)), keys("team-a"));
  }

  @Test
  void aNamespaceCreatedLaterGetsItsSecretAfterTheDebounce() {
    install(RewritePolicy.ALWAYS);
    cluster.start().advanceSeconds(2);
    Instant created = cluster.now();
    cluster.applyNamespace("team-c", "tier=prod");
    cluster.advanceSeconds(0.4);
    assertEquals(Optional.empty(), keys("team-c"), "events within the debounce wait together");
    cluster.advanceSeconds(0.2);
    assertEquals(Optional.of(List.of(BAR, FOO)), keys("team-c"));
    assertEquals(created.plusMillis(500), cluster.applies("team-c").get(0).at());
  }

  // ---- OnFailure --------------------------------------------------------------------------

  @ParameterizedTest(name = "a pod in phase {0} rewritten by the resource: Secret written {1}")
  @CsvSource({
    "Pending, true",
    "Running, true",
    "'', true",
    "Succeeded, false",
    "Failed, false",
  })
  void onFailureWritesAfterTheFirstRewriteOfALivePod(String phase, boolean written) {
    cluster.applyNamespace("team-a", "tier=prod");
    install(RewritePolicy.ON_FAILURE);
    cluster.start().advanceSeconds(2);
    assertEquals(Optional.empty(), keys("team-a"), "no rewrite yet");

    cluster.pod(pod("team-a", "web", ACME, phase.isEmpty() ? null : phase, FOO + ":1.0"));
    cluster.advanceSeconds(2);

    assertEquals(written ? Optional.of(List.of(FOO)) : Optional.empty(), keys("team-a"));
  }

  @Test
  void onFailureNeverWritesForAPodAnotherResourceRewrote() {
    cluster.applyNamespace("team-a", "tier=prod");
    install(RewritePolicy.ON_FAILURE);
    cluster.start();
    cluster.pod(
        pod(
            "team-a",
            "web",
            new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "other"),
            "Running",
            FOO + ":1.0"));
    cluster.advanceSeconds(2);
    assertEquals(Optional.empty(), keys("team-a"));
    assertEquals(List.of(), cluster.applies());
  }

  @ParameterizedTest(name = "the need ends when the pod {0}")
  @CsvSource({"is deleted", "succeeds", "fails", "runs another image"})
  void anUnusedEntryStaysTheDocumentedGraceThenLeaves(String how) {
    cluster.applyNamespace("team-a", "tier=prod");
    install(RewritePolicy.ON_FAILURE);
    cluster.start();
    cluster.pod(pod("team-a", "web", ACME, "Running", FOO + ":1.0", BAR + ":1"));
    cluster.advanceSeconds(2);
    assertEquals(Optional.of(List.of(BAR, FOO)), keys("team-a"));

    Instant released = cluster.now();
    switch (how) {
      case "is deleted" -> cluster.deletePod("team-a", "web");
      case "succeeds" ->
          cluster.pod(pod("team-a", "web", ACME, "Succeeded", FOO + ":1.0", BAR + ":1"));
      case "fails" -> cluster.pod(pod("team-a", "web", ACME, "Failed", FOO + ":1.0", BAR + ":1"));
      default -> cluster.pod(pod("team-a", "web", ACME, "Running", "nginx:1.27", BAR + ":1"));
    }
    List<String> afterGrace = how.equals("runs another image") ? List.of(BAR) : List.of();

    cluster.advance(Duration.ofMinutes(14).plusSeconds(59));
    assertEquals(Optional.of(List.of(BAR, FOO)), keys("team-a"), "present at 14:59");
    cluster.advance(Duration.ofSeconds(2));
    assertEquals(Optional.of(afterGrace), keys("team-a"), "gone at 15:01");

    SyncerHarness.Apply release =
        cluster.applies("team-a").get(cluster.applies("team-a").size() - 1);
    assertEquals(released.plus(GRACE), release.at(), "released exactly when the grace ends");
  }

  @Test
  void anUnrelatedEventDuringTheGraceDoesNotEndItEarly() {
    cluster.applyNamespace("team-a", "tier=prod");
    install(RewritePolicy.ON_FAILURE);
    cluster.start();
    cluster.pod(pod("team-a", "web", ACME, "Running", FOO + ":1.0"));
    cluster.advanceSeconds(2);
    cluster.deletePod("team-a", "web");
    for (int minute = 1; minute <= 14; minute++) {
      cluster.advance(Duration.ofMinutes(1));
      cluster.applyNamespace("team-a", "tier=prod", "minute=" + minute); // reconciles the pair
    }
    cluster.advanceSeconds(59);
    assertEquals(Optional.of(List.of(FOO)), keys("team-a"), "present at 14:59");
    cluster.advanceSeconds(2);
    assertEquals(Optional.of(List.of()), keys("team-a"), "gone at 15:01");
  }

  @Test
  void theGraceRunsFromTheLastMomentTheEntryWasNeeded() {
    cluster.applyNamespace("team-a", "tier=prod");
    install(RewritePolicy.ON_FAILURE);
    cluster.start();
    cluster.pod(pod("team-a", "web-1", ACME, "Running", FOO + ":1.0"));
    cluster.advanceSeconds(2);
    cluster.deletePod("team-a", "web-1");
    cluster.advance(Duration.ofMinutes(10));
    // A rollout's new pod needs it again, then goes too.
    cluster.pod(pod("team-a", "web-2", ACME, "Running", FOO + ":1.0"));
    cluster.advanceSeconds(2);
    Instant releasedAgain = cluster.now();
    cluster.deletePod("team-a", "web-2");

    cluster.advance(Duration.ofMinutes(14));
    assertEquals(Optional.of(List.of(FOO)), keys("team-a"), "25 minutes after the first release");
    cluster.advance(Duration.ofMinutes(2));
    assertEquals(Optional.of(List.of()), keys("team-a"));
    assertTrue(
        cluster.applies("team-a").stream()
            .anyMatch(
                a -> a.at().equals(releasedAgain.plus(GRACE)) && a.content().auths().isEmpty()));
  }

  @Test
  void aPodCreatedAndDeletedWithinTheDebounceStillGetsItsEntryAndItsGrace() {
    cluster.applyNamespace("team-a", "tier=prod");
    install(RewritePolicy.ON_FAILURE);
    cluster.start().advanceSeconds(2);

    cluster.pod(pod("team-a", "job", ACME, "Running", FOO + ":1.0"));
    cluster.advanceSeconds(0.1);
    Instant gone = cluster.now();
    cluster.deletePod("team-a", "job");
    cluster.advanceSeconds(2);

    assertEquals(Optional.of(List.of(FOO)), keys("team-a"), "no reconcile saw the pod live");
    cluster.advance(GRACE.minusSeconds(3));
    assertEquals(Optional.of(List.of(FOO)), keys("team-a"));
    cluster.advance(Duration.ofSeconds(2));
    assertEquals(Optional.of(List.of()), keys("team-a"));
    assertEquals(gone.plus(GRACE), cluster.applies("team-a").get(1).at());
  }

  @Test
  void anEntryRemovedFromTheResourceLeavesAtOnceWithoutGrace() {
    cluster.applyNamespace("team-a", "tier=prod");
    install(RewritePolicy.ON_FAILURE);
    cluster.start();
    cluster.pod(pod("team-a", "web", ACME, "Running", FOO + ":1.0", BAR + ":1"));
    cluster.advanceSeconds(2);

    cluster.resource(
        alternative("acme", RewritePolicy.ON_FAILURE, null, repository(1, BAR, "acme-pull")));
    cluster.advanceSeconds(2);
    assertEquals(Optional.of(List.of(BAR)), keys("team-a"));
  }

  @Test
  void anOnFailureResourceTurnedAlwaysAndBackDoesNotBringAReleasedKeyBack() {
    cluster.applyNamespace("team-a", "tier=prod");
    install(RewritePolicy.ON_FAILURE);
    cluster.start();
    cluster.pod(pod("team-a", "web", ACME, "Running", FOO + ":1.0"));
    cluster.advanceSeconds(2);
    cluster.deletePod("team-a", "web");
    cluster.advanceSeconds(2);
    install(RewritePolicy.ALWAYS); // every injecting entry, and no grace clock any more
    cluster.advanceSeconds(2);
    assertEquals(Optional.of(List.of(BAR, FOO)), keys("team-a"));

    install(RewritePolicy.ON_FAILURE);
    cluster.advanceSeconds(2);
    assertEquals(Optional.of(List.of()), keys("team-a"), "the old grace clock is gone");
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  @Test
  void aTerminatingNamespaceGetsNoWriteAndARefusalThereIsNotRetried() {
    cluster.applyNamespace("team-a", "tier=prod");
    install(RewritePolicy.ALWAYS);
    cluster.start().advanceSeconds(2);
    int before = cluster.applies().size();

    cluster.terminateNamespace("team-a");
    cluster.source("acme-pull", config("quay.io/acme", "acme", "rotated"));
    cluster.advance(Duration.ofMinutes(5));
    assertEquals(before, cluster.applies().size());

    // The informer had not seen the termination yet: the API server refuses, and that is final.
    cluster.applyNamespace("team-b", "tier=prod");
    cluster.serverAnswers(
        secret -> new Answer.Refused(403, "Forbidden", "namespace team-b is being terminated"));
    cluster.advance(Duration.ofMinutes(5));
    assertEquals(1, cluster.applies("team-b").size());
  }

  @Test
  void aDeletedResourceIsForgottenAndItsSecretsLeftToTheGarbageCollector() {
    cluster = new SyncerHarness(SyncerSettings.defaults(SyncerHarness.CLUSTER_RESOURCE_NAMESPACE));
    cluster.applyNamespace("team-a", "tier=prod");
    install(RewritePolicy.ALWAYS);
    cluster.start().advanceSeconds(2);
    int before = cluster.applies().size();

    cluster.deleteResource(ACME);
    cluster.advance(Duration.ofMinutes(11)); // through a resync

    assertEquals(before, cluster.applies().size(), "no write for a deleted resource");
    assertEquals(Optional.empty(), keys("team-a"));
    assertEquals(0, cluster.syncer().queueDepth());
  }

  @Test
  void aDeletedNamespaceIsForgotten() {
    cluster = new SyncerHarness(SyncerSettings.defaults(SyncerHarness.CLUSTER_RESOURCE_NAMESPACE));
    cluster.applyNamespace("team-a", "tier=prod");
    install(RewritePolicy.ALWAYS);
    cluster.start().advanceSeconds(2);
    cluster.source("acme-pull", config("quay.io/acme", "acme", "rotated"));
    assertTrue(cluster.syncer().queueDepth() > 0, "the rotation waits for the debounce");
    cluster.deleteNamespace("team-a");
    assertEquals(0, cluster.syncer().queueDepth());
    cluster.advance(Duration.ofMinutes(11)); // through a resync
    assertEquals(1, cluster.applies().size());
  }

  @Test
  void aNamespaceRecreatedUnderTheSameNameGetsItsSecretAgain() {
    cluster.applyNamespace("team-a", "tier=prod");
    install(RewritePolicy.ALWAYS);
    cluster.start().advanceSeconds(2);
    cluster.deleteNamespace("team-a");
    cluster.applyNamespace("team-a", "tier=prod");
    cluster.advanceSeconds(2);
    assertEquals(Optional.of(List.of(BAR, FOO)), keys("team-a"));
  }

  @Test
  void aResourceRecreatedUnderTheSameNameStartsFromNothing() {
    cluster.applyNamespace("team-a", "tier=prod");
    install(RewritePolicy.ALWAYS);
    cluster.start().advanceSeconds(2);
    cluster.deleteResource(ACME);
    // The same name, selecting nothing here now: it never wrote team-a, so it leaves it alone.
    cluster.resource(
        alternative(
            "acme",
            RewritePolicy.ALWAYS,
            selector("tier", "dev"),
            repository(0, FOO, "acme-pull")));
    cluster.advanceSeconds(2);
    assertEquals(Optional.empty(), keys("team-a"));
    assertEquals(1, cluster.applies().size());
  }

  @Test
  void aPodOfAnInvalidResourceChangesNothing() {
    cluster.applyNamespace("team-a", "tier=prod");
    install(RewritePolicy.ON_FAILURE);
    cluster.start();
    cluster.pod(pod("team-a", "web", ACME, "Running", FOO + ":1.0"));
    cluster.advanceSeconds(2);
    cluster.resource(
        new io.kuik.model.Validated.Invalid(
            ACME, List.of(new io.kuik.model.Problem("spec", "is required"))));
    cluster.deletePod("team-a", "web");
    cluster.advance(GRACE.plusMinutes(1));
    assertEquals(Optional.of(List.of(FOO)), keys("team-a"), "keeps its last good content");
  }

  @Test
  void aChangeOfASecretNoResourceUsesReconcilesNothing() {
    cluster.applyNamespace("team-a", "tier=prod");
    install(RewritePolicy.ALWAYS);
    cluster.start().advanceSeconds(2);
    long reconciles = cluster.syncer().counters().reconciles();
    cluster.source("helm-release", config("example.com", "x", "y"));
    cluster.advanceSeconds(2);
    assertEquals(reconciles, cluster.syncer().counters().reconciles());
  }

  @Test
  void theCountersCountWhatTheCoreDid() {
    SyncerHarness paced =
        new SyncerHarness(
            SyncerSettings.defaults(SyncerHarness.CLUSTER_RESOURCE_NAMESPACE).withWriteLimit(1, 1));
    paced.applyNamespace("team-a", "tier=prod");
    paced.applyNamespace("team-b", "tier=prod");
    paced.source("acme-pull", config("quay.io/acme", "acme", "s3cret"));
    paced.resource(
        alternative(
            "acme",
            RewritePolicy.ALWAYS,
            selector("tier", "prod"),
            repository(0, FOO, "acme-pull")));
    paced.serverAnswers(
        secret ->
            secret.getMetadata().getNamespace().equals("team-b")
                ? new Answer.Refused(503, "Unavailable", "later")
                : Answer.APPLIED);
    paced.start().advanceSeconds(1.2); // team-a at 0.5 s; team-b waits for the token at 1.5 s
    SyncerCounters counters = paced.syncer().counters();
    assertEquals(1, counters.appliesSent());
    assertEquals(1, counters.writesDeferred());
    paced.advanceSeconds(0.5);
    assertEquals(2, counters.appliesSent());
    assertEquals(1, counters.applyFailures());
    paced.applyNamespace("team-a", "tier=prod", "owner=alice");
    paced.advanceSeconds(1); // a reconcile may wait for a token: both run at 2.5 s
    assertEquals(1, counters.appliesSkipped());
    assertEquals(2, counters.applyFailures(), "team-b's retry");
    assertEquals(5, counters.reconciles(), "team-a twice, team-b deferred, refused, refused");
  }

  @Test
  void aResourceWithoutAnInjectingEntryWritesNothingButReconciles() {
    cluster.applyNamespace("team-a", "tier=prod");
    cluster.resource(alternative("acme", RewritePolicy.ALWAYS, null, repository(0, FOO, null)));
    cluster.start().advanceSeconds(2);
    cluster.pod(pod("team-a", "web", ACME, "Running", FOO + ":1.0"));
    cluster.advanceSeconds(2);
    assertEquals(List.of(), cluster.applies());
    assertTrue(cluster.syncer().counters().reconciles() >= 2, "the syncer did look");
  }

  @Test
  void theOwnerReferenceAndLabelOfEveryWriteAreTheDesiredSecretsOwn() {
    List<io.fabric8.kubernetes.api.model.Secret> sent = new java.util.ArrayList<>();
    cluster.serverAnswers(
        secret -> {
          sent.add(secret);
          return Answer.APPLIED;
        });
    cluster.applyNamespace("team-a", "tier=prod");
    RoutingResource resource =
        alternative("acme", RewritePolicy.ALWAYS, null, repository(0, FOO, "acme-pull"));
    cluster.source("acme-pull", config("quay.io/acme", "acme", "s3cret"));
    cluster.resource(resource);
    cluster.start().advanceSeconds(2);
    assertEquals(
        List.of(
            DesiredSecrets.desiredSecret(
                resource,
                "team-a",
                new DockerConfig(Map.of(FOO, RegistryCredential.basic("acme", "s3cret"))))),
        sent);
  }
}
