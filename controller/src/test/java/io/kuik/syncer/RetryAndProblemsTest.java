package io.kuik.syncer;

import static io.kuik.syncer.SyncerHarness.alternative;
import static io.kuik.syncer.SyncerHarness.config;
import static io.kuik.syncer.SyncerHarness.repository;
import static io.kuik.syncer.SyncerHarness.selector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.DockerConfig;
import io.kuik.model.Problem;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import io.kuik.model.Validated;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Refused writes and their backoff, and the problems the core reports, each once. */
class RetryAndProblemsTest {

  static final String FOO = "quay.io/acme/foo";
  static final String BAR = "ghcr.io/acme/bar";
  static final String SECRET = "kuik-inject-imagealternative-acme";
  static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");

  /** The documented retry: 1 s, doubled on each failure, at most 5 minutes. */
  static final List<Duration> BACKOFF =
      List.of(1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300).stream()
          .map(Duration::ofSeconds)
          .toList();

  private SyncerHarness cluster = SyncerHarness.withDefaults();

  /** A resync every minute: the tests that go through one. */
  private void resyncEveryMinute() {
    cluster = new SyncerHarness(SyncerHarness.noResync().withResyncPeriod(Duration.ofMinutes(1)));
  }

  private void install() {
    cluster.source("acme-pull", config("quay.io/acme", "acme", "s3cret"));
    cluster.resource(
        alternative(
            "acme",
            RewritePolicy.ALWAYS,
            selector("tier", "prod"),
            repository(0, FOO, "acme-pull"),
            repository(1, BAR, "ghcr-pull")));
  }

  private static Answer refusedIn(
      String namespace, io.fabric8.kubernetes.api.model.Secret secret, int code) {
    return secret.getMetadata().getNamespace().equals(namespace)
        ? new Answer.Refused(code, "Unavailable", "try later")
        : Answer.APPLIED;
  }

  // ---- backoff ----------------------------------------------------------------------------

  @Test
  void aRefusedWriteIsRetriedWithCappedExponentialBackoffThatEventsNeverShorten() {
    cluster.applyNamespace("team-a", "tier=prod");
    cluster.applyNamespace("team-b", "tier=prod");
    install();
    cluster.serverAnswers(secret -> refusedIn("team-a", secret, 503));
    cluster.start();
    Duration total = BACKOFF.stream().reduce(Duration.ZERO, Duration::plus);
    for (Duration t = Duration.ZERO; t.compareTo(total) < 0; t = t.plusMillis(500)) {
      cluster.applyNamespace("team-a", "tier=prod", "tick=" + t.toMillis()); // events keep coming
      cluster.advance(Duration.ofMillis(500));
    }
    cluster.advanceSeconds(1);

    List<SyncerHarness.Apply> tries = cluster.applies("team-a");
    assertEquals(BACKOFF.size() + 1, tries.size());
    for (int i = 1; i < tries.size(); i++) {
      assertEquals(
          BACKOFF.get(i - 1),
          Duration.between(tries.get(i - 1).at(), tries.get(i).at()),
          "the wait before try " + (i + 1));
    }
    assertEquals(1, cluster.applies("team-b").size(), "one failing pair blocks no other");
  }

  @Test
  void aSuccessEndsTheBackoffSoTheNextRefusalWaitsTheBaseAgain() {
    cluster.applyNamespace("team-a", "tier=prod");
    install();
    cluster.serverAnswers(secret -> refusedIn("team-a", secret, 503));
    cluster.start().advance(Duration.ofSeconds(10)); // tries at 0.5, 1.5, 3.5, 7.5
    cluster.serverAnswers(secret -> Answer.APPLIED);
    cluster.advance(Duration.ofSeconds(20)); // the try at 15.5 succeeds
    assertEquals(Optional.of(List.of(FOO)), cluster.keys("team-a", SECRET));

    cluster.serverAnswers(secret -> refusedIn("team-a", secret, 503));
    cluster.source("acme-pull", config("quay.io/acme", "acme", "rotated"));
    cluster.advance(Duration.ofMillis(1600)); // tries at 30.5 and 31.5
    List<SyncerHarness.Apply> tries = cluster.applies("team-a");
    assertEquals(
        Duration.ofSeconds(1),
        Duration.between(tries.get(tries.size() - 2).at(), tries.get(tries.size() - 1).at()));
  }

  @Test
  void aRetriedForcedResyncStillRestoresTheSecret() {
    resyncEveryMinute();
    cluster.applyNamespace("team-a", "tier=prod");
    install();
    cluster.start().advanceSeconds(2);
    cluster.personDeletes("team-a", SECRET);
    cluster.serverAnswers(secret -> refusedIn("team-a", secret, 503));
    cluster.advanceSeconds(61);
    assertTrue(cluster.applies("team-a").get(1).refused(), "the resync's apply was refused");
    cluster.serverAnswers(secret -> Answer.APPLIED);
    cluster.advanceSeconds(70); // the backoff, 64 s at most by then
    assertTrue(cluster.stored("team-a", SECRET).isPresent());
  }

  // ---- problems, each reported once ---------------------------------------------------------

  /**
   * An Event is a write too: it pays its token of the one budget, and the apply waits for the next.
   */
  @Test
  void anEventTakesAWriteTokenFromTheApplyThatFollowsIt() {
    cluster = new SyncerHarness(SyncerHarness.noResync().withWriteLimit(1, 1));
    cluster.applyNamespace("team-a", "tier=prod");
    install(); // ghcr-pull is missing: PullSecretInjectionFailed when the pair is first decided
    cluster.start().advanceSeconds(5);

    assertEquals(1, cluster.events(ProblemReports.INJECTION_FAILED).size());
    assertEquals(
        SyncerHarness.T0.plusMillis(1500),
        cluster.applies().get(0).at(),
        "decided at 0.5 s, its Event took the token, the apply went with the next one");
  }

  @Test
  void aMissingSourceIsReportedOnceLeavesItsEntryOutAndIsReportedAgainWhenItComesBack() {
    resyncEveryMinute();
    for (String ns : List.of("team-a", "team-b", "team-c")) {
      cluster.applyNamespace(ns, "tier=prod");
    }
    install();
    cluster.start().advanceSeconds(2);
    cluster.advanceSeconds(61); // through a resync
    cluster.applyNamespace("team-a", "tier=prod", "owner=alice");
    cluster.advanceSeconds(2);

    List<SyncerHarness.Recorded> failed = cluster.events(ProblemReports.INJECTION_FAILED);
    assertEquals(1, failed.size(), "one Event for three namespaces and a resync");
    assertEquals(
        "spec.alternatives[1] (ghcr.io/acme/bar) is left out of the pull secret:"
            + " Secret kuik-system/ghcr-pull does not exist",
        failed.get(0).message());
    assertEquals(Optional.of(List.of(FOO)), cluster.keys("team-b", SECRET), "the rest is written");

    cluster.source("ghcr-pull", config("ghcr.io", "gh", "t0ken"));
    cluster.advanceSeconds(2);
    assertEquals(Optional.of(List.of(BAR, FOO)), cluster.keys("team-b", SECRET));
    assertEquals(1, cluster.events(ProblemReports.INJECTION_FAILED).size());

    cluster.deleteSource("ghcr-pull");
    cluster.advanceSeconds(2);
    assertEquals(2, cluster.events(ProblemReports.INJECTION_FAILED).size(), "it is back");
    assertEquals(Optional.of(List.of(FOO)), cluster.keys("team-b", SECRET));
  }

  @Test
  void aResourceDeletedAndRecreatedReportsItsProblemAgain() {
    cluster.applyNamespace("team-a", "tier=prod");
    install();
    cluster.start().advanceSeconds(2);
    assertEquals(1, cluster.events(ProblemReports.INJECTION_FAILED).size());
    cluster.deleteResource(ACME);
    install();
    cluster.advanceSeconds(2);
    assertEquals(2, cluster.events(ProblemReports.INJECTION_FAILED).size());
  }

  @Test
  void aSecretOfExactlyOneMebibyteIsWritten() {
    cluster.applyNamespace("team-a", "tier=prod");
    cluster.resource(
        alternative(
            "acme",
            RewritePolicy.ALWAYS,
            selector("tier", "prod"),
            repository(0, FOO, "acme-pull")));
    String probe = "t";
    int overhead =
        DesiredSecrets.dataBytes(
                new DockerConfig(Map.of(FOO, new RegistryCredential(null, null, probe, null))))
            - probe.length();
    String token = "t".repeat(DesiredSecrets.MAX_DATA_BYTES - overhead);
    cluster.source(
        "acme-pull",
        new DockerConfig(Map.of("quay.io/acme", new RegistryCredential(null, null, token, null))));
    cluster.start().advanceSeconds(2);
    assertEquals(
        1024 * 1024, DesiredSecrets.dataBytes(cluster.stored("team-a", SECRET).orElseThrow()));
    assertEquals(List.of(), cluster.events(ProblemReports.SECRET_TOO_LARGE));
  }

  @Test
  void aBrokenSourceIsReportedWithWhatIsWrongAndNeverItsContent() {
    cluster.applyNamespace("team-a", "tier=prod");
    install();
    cluster.source(
        "ghcr-pull",
        SyncerHarness.dockerConfigSecret("ghcr-pull", "{\"auths\":{\"ghcr.io\":\"s3cret\"}}"));
    cluster.start().advanceSeconds(2);
    String message = cluster.events(ProblemReports.INJECTION_FAILED).get(0).message();
    assertTrue(message.contains("Secret kuik-system/ghcr-pull is malformed"), message);
    assertTrue(!message.contains("s3cret"), message);
  }

  @Test
  void anInvalidResourceIsReportedOnceClearedWhenFixedAndReportedAgainWhenBrokenAgain() {
    resyncEveryMinute();
    cluster.applyNamespace("team-a", "tier=prod");
    Validated broken =
        new Validated.Invalid(ACME, List.of(new Problem("spec.alternatives", "is required")));
    cluster.resource(broken);
    cluster.start().advanceSeconds(2);
    assertEquals(1, cluster.events(ProblemReports.INVALID_RESOURCE).size(), "reported at start");
    cluster.resource(broken);
    cluster.advanceSeconds(61); // through a resync
    assertEquals(1, cluster.events(ProblemReports.INVALID_RESOURCE).size());
    assertEquals(
        "spec.alternatives: is required",
        cluster.events(ProblemReports.INVALID_RESOURCE).get(0).message());
    assertEquals(List.of(), cluster.applies());

    install();
    cluster.advanceSeconds(2);
    assertEquals(Optional.of(List.of(FOO)), cluster.keys("team-a", SECRET));
    cluster.resource(broken);
    cluster.advanceSeconds(2);
    assertEquals(2, cluster.events(ProblemReports.INVALID_RESOURCE).size());
    assertEquals(
        Optional.of(List.of(FOO)), cluster.keys("team-a", SECRET), "keeps its last good content");
  }

  @Test
  void aRefusedWriteIsReportedOncePerNamespaceUntilAWriteSucceeds() {
    cluster.applyNamespace("team-a", "tier=prod");
    install();
    cluster.serverAnswers(secret -> refusedIn("team-a", secret, 403));
    cluster.start().advance(Duration.ofSeconds(30));
    assertTrue(cluster.applies("team-a").size() >= 4, "retried");
    assertEquals(1, cluster.events(ProblemReports.WRITE_REFUSED).size());
    assertTrue(
        cluster
            .events(ProblemReports.WRITE_REFUSED)
            .get(0)
            .message()
            .contains("in namespace team-a"));

    cluster.serverAnswers(secret -> Answer.APPLIED);
    cluster.advance(Duration.ofMinutes(1));
    cluster.serverAnswers(secret -> refusedIn("team-a", secret, 422));
    cluster.source("acme-pull", config("quay.io/acme", "acme", "rotated"));
    cluster.advanceSeconds(2);
    assertEquals(2, cluster.events(ProblemReports.WRITE_REFUSED).size(), "reported again");
  }

  @Test
  void anUnavailableApiServerIsRetriedButNotReportedOnTheResource() {
    cluster.applyNamespace("team-a", "tier=prod");
    install();
    cluster.serverAnswers(secret -> refusedIn("team-a", secret, 503));
    cluster.start().advance(Duration.ofSeconds(30));
    assertEquals(List.of(), cluster.events(ProblemReports.WRITE_REFUSED));
  }

  @Test
  void aSecretOverTheLimitIsReportedOnceAndNotWrittenUntilItFits() {
    resyncEveryMinute();
    cluster.applyNamespace("team-a", "tier=prod");
    cluster.applyNamespace("team-b", "tier=prod");
    install();
    cluster.start().advanceSeconds(2);
    int before = cluster.applies().size();

    DockerConfig huge = hugeConfig();
    cluster.source("acme-pull", huge);
    cluster.advanceSeconds(2);
    cluster.advanceSeconds(61); // through a resync

    assertEquals(before, cluster.applies().size(), "nothing over 1 MiB is sent");
    assertEquals(2, cluster.events(ProblemReports.SECRET_TOO_LARGE).size(), "once per namespace");
    assertEquals(
        Optional.of("s3cret"),
        cluster.stored("team-a", SECRET).map(c -> c.auths().get(FOO).password()),
        "the Secret keeps its last content");
    assertTrue(cluster.events(ProblemReports.SECRET_TOO_LARGE).get(0).message().contains("1 MiB"));

    cluster.source("acme-pull", config("quay.io/acme", "acme", "small"));
    cluster.advanceSeconds(2);
    assertEquals(
        Optional.of("small"),
        cluster.stored("team-a", SECRET).map(c -> c.auths().get(FOO).password()));
    cluster.source("acme-pull", huge);
    cluster.advanceSeconds(2);
    assertEquals(4, cluster.events(ProblemReports.SECRET_TOO_LARGE).size(), "reported again");
  }

  /** A token just big enough to take the Secret's data over 1 MiB. */
  private static DockerConfig hugeConfig() {
    String token = "t".repeat(1024 * 1024);
    return new DockerConfig(
        Map.of("quay.io/acme", new RegistryCredential(null, null, token, null)));
  }
}
