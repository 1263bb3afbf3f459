package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.CredentialTrial;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingKind;
import io.kuik.model.TrialVerdict;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** When a credential is tried, and what each resource's entries read of the answers. */
class CredentialChecksTest {

  private static final Duration PERIOD = Duration.ofMinutes(10);
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final RegistryCredential ALICE = RegistryCredential.basic("alice", "s3cret");
  private static final RegistryCredential WRONG = RegistryCredential.basic("alice", "wrong");
  private static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");
  private static final ResourceId TOOLS = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "tools");

  private final CredentialChecks checks = new CredentialChecks();

  private static CredentialChecks.Target quay(String path, RegistryCredential credential) {
    return new CredentialChecks.Target("quay.io/" + path, "quay.io", path, credential);
  }

  @Test
  void aNewCredentialIsTriedAtOnceForEveryPathThatSharesItsRegistry() {
    checks.entries(ACME, List.of(quay("acme/app", ALICE)));
    checks.entries(TOOLS, List.of(quay("acme/tools", ALICE)));

    List<CredentialTrial> due = checks.due(T0, PERIOD);

    assertEquals(1, due.size(), due::toString);
    assertEquals("quay.io", due.get(0).registry());
    assertEquals(Set.of("acme/app", "acme/tools"), due.get(0).paths());
    assertEquals(List.of(), checks.due(T0, PERIOD), "in flight: not sent twice");
  }

  @Test
  void aRefusedCredentialIsNotTriedAgainBeforeTheResyncPeriodEven() {
    checks.entries(ACME, List.of(quay("acme/app", WRONG)));
    CredentialTrial trial = checks.due(T0, PERIOD).get(0);
    checks.answered(trial, TrialVerdict.refused("401"), T0.plusSeconds(1));

    checks.entries(ACME, List.of(quay("acme/app", WRONG))); // the resource changed, not the key
    assertEquals(List.of(), checks.due(T0.plusSeconds(60), PERIOD));
    assertEquals(
        Optional.of(T0.plusSeconds(1).plus(PERIOD)), checks.nextDue(T0.plusSeconds(60), PERIOD));
    assertEquals(1, checks.due(T0.plusSeconds(1).plus(PERIOD), PERIOD).size());
  }

  @Test
  void aFixedPasswordInTheSourceIsANewCredentialTriedAtOnce() {
    checks.entries(ACME, List.of(quay("acme/app", WRONG)));
    checks.answered(checks.due(T0, PERIOD).get(0), TrialVerdict.refused("401"), T0);

    checks.entries(ACME, List.of(quay("acme/app", ALICE)));

    List<CredentialTrial> due = checks.due(T0.plusSeconds(5), PERIOD);
    assertEquals(1, due.size());
    assertEquals(ALICE, due.get(0).credential());
  }

  @Test
  void aPathTheCredentialWasNotTriedForIsDueAtOnce() {
    checks.entries(ACME, List.of(quay("acme/app", ALICE)));
    checks.answered(checks.due(T0, PERIOD).get(0), TrialVerdict.accepted("200"), T0);

    checks.entries(TOOLS, List.of(quay("acme/tools", ALICE)));

    List<CredentialTrial> due = checks.due(T0.plusSeconds(5), PERIOD);
    assertEquals(1, due.size());
    assertEquals(Set.of("acme/app", "acme/tools"), due.get(0).paths());
  }

  @Test
  void anAnswerReachesEveryResourceSharingTheCredentialAndItsEntriesReadIt() {
    checks.entries(ACME, List.of(quay("acme/app", ALICE)));
    checks.entries(TOOLS, List.of(quay("acme/tools", ALICE)));
    CredentialTrial trial = checks.due(T0, PERIOD).get(0);
    assertEquals(
        List.of(new CredentialsCondition.EntryOutcome("quay.io/acme/app", "quay.io", null)),
        checks.outcomes(ACME));

    Set<ResourceId> affected = checks.answered(trial, TrialVerdict.accepted("200"), T0);

    assertEquals(Set.of(ACME, TOOLS), affected);
    assertEquals(
        List.of(
            new CredentialsCondition.EntryOutcome(
                "quay.io/acme/tools", "quay.io", TrialVerdict.accepted("200"))),
        checks.outcomes(TOOLS));
  }

  @Test
  void aCredentialNoLongerUsedReachesNoResourceWithItsLateAnswer() {
    checks.entries(ACME, List.of(quay("acme/app", ALICE)));
    CredentialTrial trial = checks.due(T0, PERIOD).get(0);

    checks.forget(ACME);

    assertEquals(Set.of(), checks.answered(trial, TrialVerdict.accepted("200"), T0));
    assertEquals(Optional.empty(), checks.nextDue(T0, PERIOD));
    assertTrue(checks.outcomes(ACME).isEmpty());
  }

  @Test
  void manyPathsAreAskedTenAtMostAndDoNotKeepTheCredentialDue() {
    List<CredentialChecks.Target> many =
        java.util.stream.IntStream.range(0, 15)
            .mapToObj(i -> quay("acme/app-" + (char) ('a' + i), ALICE))
            .toList();
    checks.entries(ACME, many);
    CredentialTrial trial = checks.due(T0, PERIOD).get(0);
    assertEquals(CredentialTrial.MAX_PATHS, trial.paths().size());

    checks.answered(trial, TrialVerdict.accepted("200"), T0);

    assertEquals(List.of(), checks.due(T0.plusSeconds(1), PERIOD));
  }

  @Test
  void aPathNewToARefusedCredentialWaitsForThePeriod() {
    checks.entries(ACME, List.of(quay("acme/app", WRONG)));
    checks.answered(checks.due(T0, PERIOD).get(0), TrialVerdict.refused("401"), T0);

    checks.entries(TOOLS, List.of(quay("acme/tools", WRONG)));

    assertEquals(List.of(), checks.due(T0.plusSeconds(5), PERIOD));
    assertEquals(Optional.of(T0.plus(PERIOD)), checks.nextDue(T0.plusSeconds(5), PERIOD));
  }

  @Test
  void anAcceptedCredentialIsTriedAtMostTwiceInAnyPeriodWhateverPathsCome() {
    checks.entries(ACME, List.of(quay("acme/app", ALICE)));
    checks.answered(checks.due(T0, PERIOD).get(0), TrialVerdict.accepted("200"), T0);
    checks.entries(TOOLS, List.of(quay("acme/tools", ALICE)));
    checks.answered(
        checks.due(T0.plusSeconds(1), PERIOD).get(0),
        TrialVerdict.accepted("200"),
        T0.plusSeconds(1));

    checks.entries(TOOLS, List.of(quay("acme/other", ALICE)));

    assertEquals(List.of(), checks.due(T0.plusSeconds(2), PERIOD));
    assertEquals(Optional.of(T0.plus(PERIOD)), checks.nextDue(T0.plusSeconds(2), PERIOD));
  }

  @Test
  void aCredentialUnusedForAWholePeriodIsForgottenAndNewAgain() {
    checks.entries(ACME, List.of(quay("acme/app", WRONG)));
    checks.answered(checks.due(T0, PERIOD).get(0), TrialVerdict.refused("401"), T0);
    checks.forget(ACME);
    checks.due(T0.plus(PERIOD).plusSeconds(1), PERIOD);

    assertTrue(checks.credentials().isEmpty(), "nothing kept once the period has passed");
    checks.entries(ACME, List.of(quay("acme/app", WRONG)));
    assertEquals(1, checks.due(T0.plus(PERIOD).plusSeconds(2), PERIOD).size());
  }

  @Test
  void withoutAResyncPeriodTheBoundSlidesOverTenMinutes() {
    checks.entries(ACME, List.of(quay("acme/app", WRONG)));
    checks.answered(checks.due(T0, Duration.ZERO).get(0), TrialVerdict.refused("401"), T0);
    checks.forget(ACME);
    checks.entries(ACME, List.of(quay("acme/app", WRONG)));

    assertEquals(List.of(), checks.due(T0.plusSeconds(60), Duration.ZERO));
    assertEquals(Optional.empty(), checks.nextDue(T0.plusSeconds(60), Duration.ZERO));
  }

  @Test
  void entriesSayWhetherTheyChangedAndForgetWhetherThereWereAny() {
    assertFalse(checks.entries(ACME, List.of()), "none before, none now");
    assertFalse(checks.forget(ACME), "it had no injecting entry");
    assertFalse(checks.forget(TOOLS), "never seen");

    assertTrue(checks.entries(ACME, List.of(quay("acme/app", ALICE))));
    assertFalse(checks.entries(ACME, List.of(quay("acme/app", ALICE))), "the same again");
    assertTrue(checks.entries(ACME, List.of(quay("acme/app", WRONG))), "another credential");

    assertTrue(checks.forget(ACME));
    assertFalse(checks.forget(ACME), "forgotten already");
  }

  @Test
  void eachCredentialIsTriedForItsOwnPathsAndItsAnswerReachesOnlyTheResourcesUsingIt() {
    checks.entries(ACME, List.of(quay("acme/app", ALICE)));
    checks.entries(TOOLS, List.of(quay("acme/tools", WRONG)));
    ResourceId other = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "other");
    checks.entries(
        other, List.of(new CredentialChecks.Target("ghcr.io/acme/x", "ghcr.io", "acme/x", ALICE)));

    List<CredentialTrial> due = checks.due(T0, PERIOD);

    assertEquals(
        List.of("ghcr.io", "quay.io", "quay.io"),
        due.stream().map(CredentialTrial::registry).toList(),
        "in the order of their registries");
    CredentialTrial alice =
        due.stream()
            .filter(t -> t.registry().equals("quay.io") && t.credential().equals(ALICE))
            .findFirst()
            .orElseThrow();
    assertEquals(Set.of("acme/app"), alice.paths(), "not the paths of another credential");
    assertEquals(Set.of(ACME), checks.answered(alice, TrialVerdict.accepted("200"), T0));
  }

  @Test
  void theBoundSlidesOverTheResyncPeriodWhenThereIsOne() {
    Duration minute = Duration.ofMinutes(1);
    checks.entries(ACME, List.of(quay("acme/app", WRONG)));
    checks.answered(checks.due(T0, minute).get(0), TrialVerdict.refused("401"), T0);
    checks.answered(
        checks.due(T0.plus(minute), minute).get(0), TrialVerdict.refused("401"), T0.plus(minute));

    assertEquals(
        1,
        checks.due(T0.plus(minute.multipliedBy(2)), minute).size(),
        "the first trial left the one-minute period: a third may go");
  }

  @Test
  void withoutAResyncPeriodAPathNewToARefusedCredentialWaitsForTheSlidingBound() {
    checks.entries(ACME, List.of(quay("acme/app", WRONG)));
    checks.answered(checks.due(T0, Duration.ZERO).get(0), TrialVerdict.refused("401"), T0);

    checks.entries(TOOLS, List.of(quay("acme/tools", WRONG)));

    assertEquals(List.of(), checks.due(T0.plusSeconds(60), Duration.ZERO));
    Instant bound = T0.plus(CredentialChecks.LEAST_PERIOD);
    assertEquals(Optional.of(bound), checks.nextDue(T0.plusSeconds(60), Duration.ZERO));
    List<CredentialTrial> due = checks.due(bound, Duration.ZERO);
    assertEquals(1, due.size());
    assertEquals(Set.of("acme/app", "acme/tools"), due.get(0).paths());
  }

  @Test
  void theNextTrialDueIsTheSoonestOfAllCredentials() {
    checks.entries(ACME, List.of(quay("acme/app", WRONG)));
    checks.answered(checks.due(T0, PERIOD).get(0), TrialVerdict.refused("401"), T0);
    checks.entries(TOOLS, List.of(quay("acme/tools", ALICE)));
    Instant later = T0.plusSeconds(30);
    checks.answered(checks.due(later, PERIOD).get(0), TrialVerdict.accepted("200"), later);

    assertEquals(Optional.of(T0.plus(PERIOD)), checks.nextDue(later, PERIOD));
  }
}
