package io.kuik.syncer;

import static io.kuik.syncer.SyncerHarness.alternative;
import static io.kuik.syncer.SyncerHarness.config;
import static io.kuik.syncer.SyncerHarness.repository;
import static io.kuik.syncer.SyncerHarness.selector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.CredentialTrial;
import io.kuik.model.Problem;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import io.kuik.model.TrialVerdict;
import io.kuik.model.Validated;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the core reads again when a routing resource changes, and forgets when a resource or a
 * namespace goes: a changed resource is served from what it says now (its sources, its validity),
 * and one created again under the same name, or a namespace created again, is served from scratch
 * (its Secrets applied, its status written), never from what the core knew of the one that went.
 */
class ResourceLifecycleTest {

  static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");
  static final String FOO = "quay.io/acme/foo";
  static final String SECRET = "kuik-inject-imagealternative-acme";
  static final Duration PERIOD = Duration.ofMinutes(10);

  private final SyncerHarness cluster =
      new SyncerHarness(SyncerHarness.noResync().withResyncPeriod(PERIOD));

  private void install(String source) {
    cluster.resource(
        alternative(
            "acme", RewritePolicy.ALWAYS, selector("tier", "prod"), repository(0, FOO, source)));
  }

  private Optional<String> password() {
    return cluster
        .stored("team-a", SECRET)
        .flatMap(c -> Optional.ofNullable(c.auths().get(FOO)))
        .map(RegistryCredential::password);
  }

  private void start() {
    cluster.applyNamespace("team-a", "tier=prod");
    cluster.source("acme-pull", config("quay.io/acme", "alice", "s3cret"));
    cluster.source("other-pull", config("quay.io/acme", "bob", "0ther"));
    cluster.registriesAnswer(trial -> TrialVerdict.accepted("GET /v2/ answered 200"));
    install("acme-pull");
    cluster.start().advanceSeconds(10);
    assertEquals(Optional.of("s3cret"), password());
  }

  @Test
  void aResourcePointedAtAnotherSourceWritesAndTriesThatSourcesCredential() {
    start();

    install("other-pull");
    cluster.advanceSeconds(10);

    assertEquals(Optional.of("0ther"), password(), "not the credential read before the change");
    List<CredentialTrial> trials = cluster.trials();
    assertEquals(
        RegistryCredential.basic("bob", "0ther"), trials.get(trials.size() - 1).credential());
  }

  @Test
  void aResourceThatBecomesInvalidShowsItInItsStatus() {
    start();
    assertTrue(cluster.status(ACME).orElseThrow().valid());

    cluster.resource(new Validated.Invalid(ACME, List.of(new Problem("spec.x", "bad")), 2));
    cluster.advanceSeconds(10);

    RoutingStatus status = cluster.status(ACME).orElseThrow();
    assertFalse(status.valid());
    assertEquals("spec.x: bad", status.message());
  }

  @Test
  void aDeletedResourcesCredentialIsNotTriedAgainAtTheNextPeriods() {
    start();
    int tried = cluster.trials().size();

    cluster.deleteResource(ACME);
    cluster.advance(PERIOD.multipliedBy(3));

    assertEquals(tried, cluster.trials().size());
  }

  @Test
  void aResourceCreatedAgainUnderTheSameNameGetsItsSecretsAndItsStatusAgain() {
    start();
    cluster.deleteResource(ACME);
    cluster.advanceSeconds(10);
    assertEquals(Optional.empty(), password(), "its Secrets went with it");
    Instant deleted = cluster.now();

    install("acme-pull");
    cluster.advanceSeconds(10);

    assertEquals(Optional.of("s3cret"), password(), "applied again, though nothing changed");
    assertTrue(
        cluster.statusWrites().stream()
            .anyMatch(
                w -> w.taken() && w.at().isAfter(deleted) && w.status().resource().equals(ACME)),
        "the new object's status written, though it is what the old one showed");
  }

  @Test
  void aNamespaceCreatedAgainUnderTheSameNameGetsItsSecretAgain() {
    start();
    cluster.deleteNamespace("team-a");
    cluster.advanceSeconds(10);

    cluster.applyNamespace("team-a", "tier=prod");
    cluster.advanceSeconds(10);

    assertEquals(Optional.of("s3cret"), password());
  }

  @Test
  void anInvalidResourceIsReportedThoughNoNamespaceIsThere() {
    SyncerHarness empty = SyncerHarness.withDefaults();
    empty.resource(new Validated.Invalid(ACME, List.of(new Problem("spec.x", "bad")), 1));
    empty.start().advanceSeconds(10);

    assertEquals(1, empty.events(ProblemReports.INVALID_RESOURCE).size());
    assertTrue(
        empty.events(ProblemReports.INVALID_RESOURCE).get(0).message().contains("spec.x: bad"));
  }

  @Test
  void aResourceBrokenFixedAndBrokenAgainIsReportedEachTimeItBreaks() {
    SyncerHarness empty = SyncerHarness.withDefaults();
    empty.resource(alternative("acme", RewritePolicy.ALWAYS, null, repository(0, FOO, null)));
    empty.start().advanceSeconds(10);
    assertEquals(List.of(), empty.events(ProblemReports.INVALID_RESOURCE));

    empty.resource(new Validated.Invalid(ACME, List.of(new Problem("spec.x", "bad")), 2));
    empty.advanceSeconds(10);
    assertEquals(1, empty.events(ProblemReports.INVALID_RESOURCE).size());

    empty.resource(alternative("acme", RewritePolicy.ALWAYS, null, repository(0, FOO, null)));
    empty.advanceSeconds(10);
    empty.resource(new Validated.Invalid(ACME, List.of(new Problem("spec.x", "bad")), 4));
    empty.advanceSeconds(10);
    assertEquals(2, empty.events(ProblemReports.INVALID_RESOURCE).size());
  }

  @Test
  void aResourceCreatedAgainWithTheSameProblemIsReportedAgain() {
    cluster.applyNamespace("team-a", "tier=prod");
    install("missing-pull"); // no such source Secret
    cluster.start().advanceSeconds(10);
    int reported = cluster.events(ProblemReports.INJECTION_FAILED).size();
    assertTrue(reported > 0, "the missing source is reported");

    cluster.deleteResource(ACME);
    cluster.advanceSeconds(10);
    install("missing-pull");
    cluster.advanceSeconds(10);

    assertTrue(
        cluster.events(ProblemReports.INJECTION_FAILED).size() > reported,
        "the new object is told too");
  }

  @Test
  void aResourceWithoutCredentialsThatBecomesInvalidShowsItInItsStatus() {
    SyncerHarness plain = SyncerHarness.withDefaults();
    plain.applyNamespace("team-a", "tier=prod");
    plain.resource(
        alternative(
            "acme", RewritePolicy.ALWAYS, selector("tier", "prod"), repository(0, FOO, null)));
    plain.start().advanceSeconds(10);
    assertTrue(plain.status(ACME).orElseThrow().valid());

    plain.resource(new Validated.Invalid(ACME, List.of(new Problem("spec.x", "bad")), 2));
    plain.advanceSeconds(10);

    assertFalse(plain.status(ACME).orElseThrow().valid());
  }

  @Test
  void aResourceOfNoNamespaceCreatedAgainGetsItsStatusWrittenAgain() {
    SyncerHarness empty = SyncerHarness.withDefaults();
    empty.resource(alternative("acme", RewritePolicy.ALWAYS, null, repository(0, FOO, null)));
    empty.start().advanceSeconds(10);
    assertEquals(1, empty.statusWrites().size());

    empty.deleteResource(ACME);
    empty.advanceSeconds(10);
    empty.resource(alternative("acme", RewritePolicy.ALWAYS, null, repository(0, FOO, null)));
    empty.advanceSeconds(10);

    assertEquals(2, empty.statusWrites().size(), "the new object shows a status too");
  }
}
