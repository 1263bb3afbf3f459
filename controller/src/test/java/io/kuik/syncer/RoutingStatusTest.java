package io.kuik.syncer;

import static io.kuik.syncer.SyncerHarness.alternative;
import static io.kuik.syncer.SyncerHarness.config;
import static io.kuik.syncer.SyncerHarness.pod;
import static io.kuik.syncer.SyncerHarness.repository;
import static io.kuik.syncer.SyncerHarness.selector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.Problem;
import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import io.kuik.model.Validated;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The status of the routing resources as the core decides and writes it: Valid from the validation,
 * the namespaces whose Secret holds a credential, at most one write per resource per 5 seconds ("a
 * few seconds", this test's own number), none when nothing changed, after the Secrets.
 */
class RoutingStatusTest {

  static final Duration INTERVAL = Duration.ofSeconds(5);
  static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");
  static final String FOO = "quay.io/acme/foo";

  private SyncerHarness cluster = SyncerHarness.withDefaults();

  private void install(RewritePolicy policy) {
    cluster.source("acme-pull", config("quay.io/acme", "acme", "s3cret"));
    cluster.resource(
        alternative("acme", policy, selector("tier", "prod"), repository(0, FOO, "acme-pull")));
  }

  private List<SyncerHarness.Written> writesOf(ResourceId id) {
    return cluster.statusWrites().stream().filter(w -> w.status().resource().equals(id)).toList();
  }

  @Test
  void aValidResourceShowsValidTrueAndTheNamespacesWhoseSecretHoldsItsCredential() {
    cluster.applyNamespace("team-a", "tier=prod");
    cluster.applyNamespace("team-b", "tier=prod");
    cluster.applyNamespace("team-c", "tier=dev");
    install(RewritePolicy.ALWAYS);
    cluster.start().advanceSeconds(20);

    RoutingStatus status = cluster.status(ACME).orElseThrow();
    assertTrue(status.valid());
    assertEquals("Valid", status.reason());
    assertEquals(2, status.secretNamespaces());
  }

  @Test
  void aNamespaceLeavingTheScopeNoLongerCountsOnceItsSecretIsEmptied() {
    cluster.applyNamespace("team-a", "tier=prod");
    cluster.applyNamespace("team-b", "tier=prod");
    install(RewritePolicy.ALWAYS);
    cluster.start().advanceSeconds(20);
    cluster.applyNamespace("team-b", "tier=dev");
    cluster.advanceSeconds(20);

    assertEquals(1, cluster.status(ACME).orElseThrow().secretNamespaces());
  }

  @Test
  void anInvalidResourceShowsValidFalseWithEveryProblemAsTheMessage() {
    cluster.applyNamespace("team-a", "tier=prod");
    cluster.resource(
        new Validated.Invalid(
            ACME,
            List.of(
                new Problem("spec.alternatives[0].repository", "must not hold a tag"),
                new Problem("spec.rewritePolicy", "must be OnFailure or Always")),
            3));
    cluster.start().advanceSeconds(20);

    RoutingStatus status = cluster.status(ACME).orElseThrow();
    assertFalse(status.valid());
    assertEquals("InvalidRoutingResource", status.reason());
    assertEquals(
        "spec.alternatives[0].repository: must not hold a tag;"
            + " spec.rewritePolicy: must be OnFailure or Always",
        status.message());
    assertEquals(3, status.observedGeneration());
    assertEquals(0, status.secretNamespaces());
  }

  @Test
  void manyRewritesCostAtMostOneStatusWritePerResourceEveryFiveSeconds() {
    for (int i = 0; i < 40; i++) {
      cluster.applyNamespace("team-" + i, "tier=prod");
    }
    install(RewritePolicy.ON_FAILURE);
    cluster.start().advanceSeconds(10);
    for (int i = 0; i < 40; i++) { // one rewritten pod every 250 ms for 10 s
      cluster.pod(pod("team-" + i, "web", ACME, "Running", FOO + ":1.0"));
      cluster.advanceSeconds(0.25);
    }
    cluster.advanceSeconds(30);

    List<SyncerHarness.Written> writes = writesOf(ACME);
    for (int i = 1; i < writes.size(); i++) {
      Duration gap = Duration.between(writes.get(i - 1).at(), writes.get(i).at());
      assertFalse(gap.compareTo(INTERVAL) < 0, "two writes " + gap + " apart: " + writes);
    }
    assertTrue(writes.size() <= 1 + 1 + 10 / 5 + 1, "writes: " + writes.size());
    assertEquals(40, cluster.status(ACME).orElseThrow().secretNamespaces());
  }

  @Test
  void nothingChangedWritesNoStatusAgainEvenAtAResync() {
    cluster = new SyncerHarness(SyncerHarness.noResync().withResyncPeriod(Duration.ofMinutes(1)));
    cluster.applyNamespace("team-a", "tier=prod");
    install(RewritePolicy.ALWAYS);
    cluster.start().advanceSeconds(20);
    int before = cluster.statusWrites().size();
    cluster.advanceSeconds(61); // through a resync
    cluster.resource(
        alternative(
            "acme",
            RewritePolicy.ALWAYS,
            selector("tier", "prod"),
            repository(0, FOO, "acme-pull")));
    cluster.advanceSeconds(60);

    assertEquals(before, cluster.statusWrites().size());
  }

  @Test
  void statusWritesWaitForTheSecretsWhenTheWriteBudgetIsShort() {
    cluster = new SyncerHarness(SyncerSettings.defaults("kuik-system").withWriteLimit(1, 1));
    for (int i = 0; i < 6; i++) {
      cluster.applyNamespace("team-" + i, "tier=prod");
    }
    install(RewritePolicy.ALWAYS);
    cluster.start().advanceSeconds(30);

    Instant lastApply = cluster.applies().get(cluster.applies().size() - 1).at();
    Instant firstStatus = writesOf(ACME).get(0).at();
    assertTrue(firstStatus.isAfter(lastApply), firstStatus + " before " + lastApply);
    assertEquals(6, cluster.applies().size());
  }

  @Test
  void aRefusedStatusIsWrittenAgainAfterTheIntervalFromWhatTheCoreKnowsThen() {
    cluster.applyNamespace("team-a", "tier=prod");
    install(RewritePolicy.ALWAYS);
    cluster.statusWritesTaken(false);
    cluster.start().advanceSeconds(2);
    List<SyncerHarness.Written> refused = writesOf(ACME);
    cluster.statusWritesTaken(true);
    cluster.advanceSeconds(20);

    List<SyncerHarness.Written> writes = writesOf(ACME);
    SyncerHarness.Written retry = writes.get(refused.size());
    assertFalse(refused.isEmpty());
    assertTrue(retry.taken());
    assertFalse(
        Duration.between(refused.get(refused.size() - 1).at(), retry.at()).compareTo(INTERVAL) < 0);
    assertEquals(1, cluster.status(ACME).orElseThrow().secretNamespaces());
    assertEquals(writes.size(), cluster.syncer().counters().statusWrites(), "every one counted");
    assertEquals(
        refused.size(),
        cluster.syncer().counters().statusWriteFailures(),
        "the refused ones counted as failures");
  }

  @Test
  void aDeletedResourceGetsNoStatusWrite() {
    cluster.applyNamespace("team-a", "tier=prod");
    install(RewritePolicy.ALWAYS);
    cluster.start();
    cluster.deleteResource(ACME);
    cluster.advanceSeconds(20);

    assertEquals(List.of(), writesOf(ACME));
  }

  // ---- the pure decision -----------------------------------------------------------------

  private static final Instant T1 = Instant.parse("2026-01-01T00:01:00Z");
  private static final Instant T2 = Instant.parse("2026-01-01T00:02:00Z");

  private static Validated invalid(String message) {
    return new Validated.Invalid(ACME, List.of(new Problem("spec", message)), 1);
  }

  @Test
  void ifValidDidNotChangeExpectTheTransitionTimeKept() {
    RoutingStatus first = ResourceStatuses.desiredStatus(invalid("a"), 0, null, T1);
    RoutingStatus second = ResourceStatuses.desiredStatus(invalid("b"), 2, first, T2);

    assertEquals(T1, second.lastTransitionTime());
    assertFalse(second.sameAs(first));
  }

  @Test
  void ifValidFlippedExpectTheTransitionNow() {
    RoutingStatus first = ResourceStatuses.desiredStatus(invalid("a"), 0, null, T1);
    Validated valid =
        new Validated.Valid(
            alternative("acme", RewritePolicy.ALWAYS, null, repository(0, FOO, "acme-pull")), 2);
    RoutingStatus second = ResourceStatuses.desiredStatus(valid, 0, first, T2);

    assertEquals(T2, second.lastTransitionTime());
    assertEquals(2, second.observedGeneration());
  }

  @Test
  void ifTheProblemsAreLongExpectTheMessageCutAt1024Characters() {
    RoutingStatus status = ResourceStatuses.desiredStatus(invalid("x".repeat(5000)), 0, null, T1);

    assertEquals(1024, status.message().length());
    assertTrue(status.message().endsWith("..."));
  }

  @Test
  void ifTheProblemsFillExactly1024CharactersExpectThemWhole() {
    String whole = "x".repeat(ResourceStatuses.MESSAGE_MAX - "spec: ".length());
    RoutingStatus status = ResourceStatuses.desiredStatus(invalid(whole), 0, null, T1);

    assertEquals("spec: " + whole, status.message());
  }

  @Test
  void ifTheCredentialsConditionKeptItsStatusExpectItsTransitionTimeKept() {
    CredentialChecks.Target target =
        new CredentialChecks.Target(
            FOO, "quay.io", "acme/foo", io.kuik.model.RegistryCredential.basic("a", "s3cret"));
    RoutingStatus.Credentials refused =
        credentialsOf(target, io.kuik.model.TrialVerdict.refused("401"), T1, null);
    RoutingStatus.Credentials refusedAgain =
        credentialsOf(target, io.kuik.model.TrialVerdict.refused("403 denied"), T2, refused);
    RoutingStatus.Credentials accepted =
        credentialsOf(target, io.kuik.model.TrialVerdict.accepted("200"), T2, refused);

    assertEquals(T1, refusedAgain.lastTransitionTime(), "still False: the transition stays");
    assertEquals("403 denied", refusedAgain.entries().get(0).answer());
    assertEquals(T2, accepted.lastTransitionTime(), "False to True: the transition now");
    assertEquals(null, ResourceStatuses.credentials(List.of(), refused, T2), "no entry: none");
  }

  private static RoutingStatus.Credentials credentialsOf(
      CredentialChecks.Target target,
      io.kuik.model.TrialVerdict verdict,
      Instant at,
      RoutingStatus.Credentials previous) {
    return ResourceStatuses.credentials(
        List.of(new CredentialChecks.Tried(target, verdict, at)), previous, at);
  }
}
