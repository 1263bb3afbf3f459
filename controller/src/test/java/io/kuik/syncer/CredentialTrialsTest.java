package io.kuik.syncer;

import static io.kuik.syncer.SyncerHarness.alternative;
import static io.kuik.syncer.SyncerHarness.config;
import static io.kuik.syncer.SyncerHarness.repository;
import static io.kuik.syncer.SyncerHarness.selector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.CredentialTrial;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import io.kuik.model.TrialVerdict;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Credentials tried ahead of time, as the core asks for them and reads the answers: one trial per
 * registry and credential when an entry or its source brings it, again at most once per resync
 * period; the condition CredentialsAccepted on the resource's status; one Event
 * PullSecretCredentialRefused per refusal; the counters by result.
 */
class CredentialTrialsTest {

  static final Duration PERIOD = Duration.ofMinutes(10);
  static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");
  static final String FOO = "quay.io/acme/foo";
  static final String REFUSED = "GET /v2/ answered 401 UNAUTHORIZED: authentication required";

  private final SyncerHarness cluster =
      new SyncerHarness(SyncerHarness.noResync().withResyncPeriod(PERIOD));

  /** A registry that knows alice with the password s3cret only. */
  private static final Function<CredentialTrial, TrialVerdict> QUAY =
      trial ->
          trial.credential().equals(RegistryCredential.basic("alice", "s3cret"))
              ? TrialVerdict.accepted("GET /v2/ answered 200")
              : TrialVerdict.refused(REFUSED);

  private void install(String password) {
    cluster.applyNamespace("team-a", "tier=prod");
    cluster.source("acme-pull", config("quay.io/acme", "alice", password));
    cluster.resource(
        alternative(
            "acme",
            RewritePolicy.ALWAYS,
            selector("tier", "prod"),
            repository(0, FOO, "acme-pull")));
  }

  private RoutingStatus.Credentials credentials() {
    return cluster.status(ACME).orElseThrow().credentials();
  }

  @Test
  void anAcceptedCredentialShowsCredentialsAcceptedTrueAndNoEvent() {
    cluster.registriesAnswer(QUAY).trialLatency(Duration.ofMillis(200));
    install("s3cret");
    cluster.start().advanceSeconds(10);

    RoutingStatus.Credentials credentials = credentials();
    assertEquals("True", credentials.status());
    assertEquals("CredentialsAccepted", credentials.reason());
    assertEquals(1, credentials.entries().size());
    RoutingStatus.Tried entry = credentials.entries().get(0);
    assertEquals(FOO, entry.entry());
    assertEquals("quay.io", entry.registry());
    assertEquals("Accepted", entry.outcome());
    assertEquals(SyncerHarness.T0.plusMillis(200), entry.lastTryTime());
    assertEquals(List.of(), cluster.events(CredentialTrials.REFUSED_EVENT));
    assertEquals(
        Map.of("accepted", 1L, "refused", 0L, "unreachable", 0L),
        cluster.syncer().counters().credentialTrials());
    assertEquals(1, cluster.syncer().counters().credentialTrialsSent());
    assertEquals(
        "echoed " + io.kuik.model.Redactor.MARK,
        cluster.syncer().redactor().redact("echoed s3cret"),
        "the process's log lines lose the credential tried");
  }

  @Test
  void aRotatedCredentialShowsNotTriedYetUntilItsRegistryAnswers() {
    cluster.registriesAnswer(QUAY);
    install("s3cret");
    cluster.start().advanceSeconds(10);
    assertEquals("True", credentials().status());

    cluster.registriesAnswer(null); // the registry stops answering
    cluster.source("acme-pull", config("quay.io/acme", "alice", "rotated"));
    cluster.advanceSeconds(10);

    assertEquals(2, cluster.trials().size(), "the new credential is tried at once");
    RoutingStatus.Credentials credentials = credentials();
    assertEquals("Unknown", credentials.status(), credentials::toString);
    assertEquals("NotTriedYet", credentials.entries().get(0).outcome());
  }

  @Test
  void theTrialAsksForThePullOfTheEntrysPathWithTheVeryCredentialWritten() {
    cluster.registriesAnswer(QUAY);
    install("s3cret");
    cluster.start().advanceSeconds(1);

    CredentialTrial trial = cluster.trials().get(0);
    assertEquals("quay.io", trial.registry());
    assertEquals(Set.of("acme/foo"), trial.paths());
    assertEquals(RegistryCredential.basic("alice", "s3cret"), trial.credential());
    assertFalse(trial.toString().contains("s3cret"), trial::toString);
    assertFalse(
        new Effect.TryCredential(trial).toString().contains("s3cret"), "an effect as logged");
  }

  @Test
  void aRefusedCredentialShowsFalseWithTheRegistrysAnswerAndOneEventOnly() {
    cluster.registriesAnswer(QUAY);
    install("wrong");
    cluster.start().advanceSeconds(10);

    RoutingStatus.Credentials credentials = credentials();
    assertEquals("False", credentials.status());
    assertEquals("CredentialRefused", credentials.reason());
    assertTrue(credentials.message().contains(REFUSED), credentials.message());
    assertEquals("Refused", credentials.entries().get(0).outcome());
    assertEquals(REFUSED, credentials.entries().get(0).answer());
    List<SyncerHarness.Recorded> events = cluster.events(CredentialTrials.REFUSED_EVENT);
    assertEquals(1, events.size(), events::toString);
    assertEquals(Effect.RecordEvent.Type.Warning, events.get(0).type());
    assertEquals(ACME, events.get(0).resource());
    assertTrue(events.get(0).message().contains(FOO), events.get(0).message());
    assertTrue(events.get(0).message().contains(REFUSED), events.get(0).message());
    assertFalse(events.get(0).message().contains("wrong"), "no credential in an Event");

    cluster.advance(PERIOD.multipliedBy(3));

    assertEquals(4, cluster.trials().size(), "tried again once per resync period");
    assertEquals(1, cluster.events(CredentialTrials.REFUSED_EVENT).size(), "once per change");
    assertEquals(4L, cluster.syncer().counters().credentialTrials().get("refused"));
  }

  @Test
  void aRefusedCredentialIsNotTriedAgainBeforeTheResyncPeriodWhateverChanges() {
    cluster.registriesAnswer(QUAY);
    install("wrong");
    cluster.start().advanceSeconds(10);
    cluster.resource(
        alternative(
            "acme",
            RewritePolicy.ALWAYS,
            selector("tier", "dev"),
            repository(0, FOO, "acme-pull")));
    cluster.applyNamespace("team-b", "tier=prod");
    cluster.advance(PERIOD.minusSeconds(20));

    assertEquals(1, cluster.trials().size(), "the same registry and credential: not again");
  }

  @Test
  void aFixedPasswordIsTriedAtOnceAndTheConditionTurnsTrue() {
    cluster.registriesAnswer(QUAY);
    install("wrong");
    cluster.start().advanceSeconds(10);

    cluster.source("acme-pull", config("quay.io/acme", "alice", "s3cret"));
    cluster.advanceSeconds(10);

    assertEquals(2, cluster.trials().size());
    assertEquals("True", credentials().status());
    assertEquals(1, cluster.events(CredentialTrials.REFUSED_EVENT).size());

    cluster.source("acme-pull", config("quay.io/acme", "alice", "wrong-again"));
    cluster.advanceSeconds(10);

    assertEquals("False", credentials().status());
    assertEquals(
        2, cluster.events(CredentialTrials.REFUSED_EVENT).size(), "refused again: a new Event");
  }

  @Test
  void aRegistryThatDoesNotAnswerLeavesTheConditionUnknown() {
    cluster.registriesAnswer(trial -> TrialVerdict.unreachable("quay.io: connection refused"));
    install("s3cret");
    cluster.start().advanceSeconds(10);

    RoutingStatus.Credentials credentials = credentials();
    assertEquals("Unknown", credentials.status());
    assertEquals("RegistryUnreachable", credentials.reason());
    assertEquals("Unreachable", credentials.entries().get(0).outcome());
    assertEquals(List.of(), cluster.events(CredentialTrials.REFUSED_EVENT));
  }

  @Test
  void untilTheRegistryAnswersTheStatusSaysNotTriedYet() {
    install("s3cret"); // registries that never answer
    cluster.start().advanceSeconds(10);

    RoutingStatus.Credentials credentials = credentials();
    assertEquals("Unknown", credentials.status());
    assertEquals("NotTriedYet", credentials.reason());
    assertNull(credentials.entries().get(0).lastTryTime());
    assertEquals(1, cluster.trials().size(), "one in flight is not sent twice");
  }

  @Test
  void withoutAResyncACredentialIsTriedOnlyWhenItChanges() {
    SyncerHarness noResync = SyncerHarness.withDefaults();
    noResync.registriesAnswer(QUAY);
    noResync.applyNamespace("team-a", "tier=prod");
    noResync.source("acme-pull", config("quay.io/acme", "alice", "s3cret"));
    noResync.resource(
        alternative(
            "acme",
            RewritePolicy.ALWAYS,
            selector("tier", "prod"),
            repository(0, FOO, "acme-pull")));
    noResync.start().advance(Duration.ofHours(5));

    assertEquals(1, noResync.trials().size());
  }

  @Test
  void aResourceWithoutAnInjectingEntryHasNoSuchCondition() {
    cluster.registriesAnswer(QUAY);
    cluster.applyNamespace("team-a", "tier=prod");
    cluster.resource(
        alternative(
            "acme", RewritePolicy.ALWAYS, selector("tier", "prod"), repository(0, FOO, null)));
    cluster.start().advanceSeconds(10);

    assertNull(cluster.status(ACME).orElseThrow().credentials());
    assertEquals(List.of(), cluster.trials());
  }

  @Test
  void anAnswerForAResourceDeletedMeanwhileWritesNothing() {
    cluster.registriesAnswer(QUAY).trialLatency(Duration.ofSeconds(3));
    install("wrong");
    cluster.start().advanceSeconds(1);
    cluster.deleteResource(ACME);
    java.time.Instant deleted = cluster.now();
    cluster.advanceSeconds(10);

    assertEquals(List.of(), cluster.events(CredentialTrials.REFUSED_EVENT));
    assertTrue(
        cluster.statusWrites().stream().noneMatch(w -> w.at().isAfter(deleted)),
        cluster.statusWrites()::toString);
  }

  @Test
  void aSourceFlappingBetweenAWrongAndARightPasswordEverySecondForAnHourIsTriedOncePerPeriod() {
    cluster.registriesAnswer(QUAY).trialLatency(Duration.ofMillis(200));
    install("wrong");
    cluster.start();
    for (int second = 1; second <= 3600; second++) {
      cluster.source(
          "acme-pull", config("quay.io/acme", "alice", second % 2 == 0 ? "wrong" : "s3cret"));
      cluster.advanceSeconds(1);
    }

    long wrong =
        cluster.trials().stream()
            .filter(t -> t.credential().equals(RegistryCredential.basic("alice", "wrong")))
            .count();
    long right = cluster.trials().size() - wrong;
    // An hour is six periods and the first trial: at most seven of each, whatever the flapping.
    assertTrue(wrong <= 7, "the wrong password was tried " + wrong + " times in an hour");
    assertTrue(right <= 7, "the right password was tried " + right + " times in an hour");
    assertTrue(
        wrong >= 6 && right >= 6, "each still tried once per period: " + wrong + "/" + right);
  }

  @Test
  void aResourceDeletedAndCreatedAgainBringsBackACredentialAlreadyTried() {
    cluster.registriesAnswer(QUAY);
    install("wrong");
    cluster.start().advanceSeconds(5);
    for (int i = 0; i < 20; i++) {
      cluster.deleteResource(ACME);
      cluster.advanceSeconds(5);
      install("wrong");
      cluster.advanceSeconds(5);
    }

    assertEquals(1, cluster.trials().size(), cluster.trials()::toString);
  }

  @Test
  void aRegistryThatEchoesTheCredentialLeavesNoFormOfItInTheStatusOrTheEvent() {
    RegistryCredential wrong = RegistryCredential.basic("alice", "wr/ong p+ss");
    cluster.registriesAnswer(
        trial -> {
          String basic =
              java.util.Base64.getEncoder()
                  .encodeToString(
                      ("alice:" + trial.credential().password())
                          .getBytes(java.nio.charset.StandardCharsets.UTF_8));
          return TrialVerdict.refused(
              "401 bad credentials in header Basic "
                  + basic
                  + " password="
                  + java.net.URLEncoder.encode(
                      trial.credential().password(), java.nio.charset.StandardCharsets.UTF_8));
        });
    install(wrong.password());
    cluster.start().advanceSeconds(10);

    io.kuik.model.Redactor forms = io.kuik.model.Redactor.of(List.of(wrong));
    RoutingStatus.Credentials credentials = credentials();
    assertEquals("False", credentials.status());
    assertFalse(forms.shows(credentials.message()), credentials.message());
    assertFalse(forms.shows(credentials.entries().get(0).answer()), credentials::toString);
    assertTrue(credentials.entries().get(0).answer().contains("<redacted>"), credentials::toString);
    String event = cluster.events(CredentialTrials.REFUSED_EVENT).get(0).message();
    assertFalse(forms.shows(event), event);
    String basic =
        java.util.Base64.getEncoder()
            .encodeToString("alice:wr/ong p+ss".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertFalse(credentials.toString().contains(basic.substring(0, 8)), credentials::toString);
    assertFalse(event.contains(basic.substring(0, 8)), event);
  }

  @Test
  void aPasswordThatIsPartOfTheRedactionMarkLeavesTheStatusWritable() {
    // Redacting such a text again changes it again: the status sent must be the one kept in
    // flight, or its answer is taken for a stale one and no status is written again.
    cluster.registriesAnswer(
        trial -> TrialVerdict.refused("401: the password " + trial.credential().password()));
    install("redacted");
    cluster.start().advanceSeconds(20);
    int written = cluster.statusWrites().size();

    cluster.applyNamespace("team-b", "tier=prod");
    cluster.advanceSeconds(20);

    assertTrue(cluster.statusWrites().size() > written, "written again");
    assertEquals(2, cluster.status(ACME).orElseThrow().secretNamespaces());
  }
}
