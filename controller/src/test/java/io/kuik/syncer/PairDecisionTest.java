package io.kuik.syncer;

import static io.kuik.syncer.SyncerHarness.T0;
import static io.kuik.syncer.SyncerHarness.alternative;
import static io.kuik.syncer.SyncerHarness.config;
import static io.kuik.syncer.SyncerHarness.pod;
import static io.kuik.syncer.SyncerHarness.repository;
import static io.kuik.syncer.SyncerHarness.selector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.DockerConfig;
import io.kuik.model.Problem;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResource;
import io.kuik.model.Validated;
import io.kuik.syncer.PairDecision.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The per-pair decision alone (docs/architecture.md#one-pair-one-decision): a table of "if the view
 * shows …, expect …", then the one predicate that says whether the write goes.
 */
class PairDecisionTest {

  static final String FOO = "quay.io/acme/foo";
  static final String BAR = "ghcr.io/acme/bar";
  static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");
  static final Pair TEAM_A = new Pair(ACME, "team-a");
  static final SyncerSettings SETTINGS = SyncerHarness.noResync();

  /** The informers' view, filled as people would; the core is never started. */
  private final SyncerHarness view = SyncerHarness.withDefaults();

  private static RoutingResource acme(RewritePolicy policy) {
    return alternative(
        "acme",
        policy,
        selector("tier", "prod"),
        repository(0, FOO, "acme-pull"),
        repository(1, BAR, "ghcr-pull"));
  }

  private void sources() {
    view.source("acme-pull", config("quay.io/acme", "acme", "s3cret"));
    view.source("ghcr-pull", config("ghcr.io/acme", "gh", "t0ken"));
  }

  private PairDecision decide(GraceClocks clocks, boolean written, Instant now) {
    return PairDecision.decide(
        TEAM_A,
        view,
        SETTINGS,
        clocks,
        written,
        PairDecision.credentialsFrom(view, SETTINGS, ProviderLookup.NONE),
        now);
  }

  private PairDecision decide() {
    return decide(GraceClocks.NONE, false, T0);
  }

  private static Set<String> keys(PairDecision decision) {
    return new TreeSet<>(decision.content().orElseThrow().auths().keySet());
  }

  // ---- the verdict ----------------------------------------------------------------------------

  @Test
  void ifTheResourceIsGoneExpectGone() {
    view.applyNamespace("team-a", "tier=prod");
    assertEquals(Verdict.GONE, decide().verdict());
  }

  @Test
  void ifTheNamespaceIsGoneExpectGone() {
    view.resource(acme(RewritePolicy.ALWAYS));
    assertEquals(Verdict.GONE, decide().verdict());
  }

  @Test
  void ifTheResourceIsInvalidExpectInvalidWithEveryProblem() {
    view.applyNamespace("team-a", "tier=prod");
    view.resource(
        new Validated.Invalid(
            ACME, List.of(new Problem("spec.alternatives", "is required"), new Problem("x", "y"))));

    PairDecision decision = decide();

    assertEquals(Verdict.INVALID, decision.verdict());
    assertEquals(
        List.of(
            "InvalidRoutingResource: spec.alternatives: is required",
            "InvalidRoutingResource: x: y"),
        decision.warnings());
    assertFalse(decision.needsApply(null, true), "never written");
  }

  @Test
  void ifTheNamespaceIsTerminatingExpectNoWrite() {
    view.applyNamespace("team-a", "tier=prod");
    view.terminateNamespace("team-a");
    view.resource(acme(RewritePolicy.ALWAYS));
    sources();
    assertEquals(Verdict.TERMINATING, decide(GraceClocks.NONE, true, T0).verdict());
  }

  @ParameterizedTest(name = "if {0} in a namespace labelled {1}, written before: {2}, expect {3}")
  @CsvSource({
    "ALWAYS, tier=prod, false, WRITE, " + FOO + " " + BAR,
    "ALWAYS, tier=dev, false, NOT_OURS, ",
    "ALWAYS, tier=dev, true, WRITE, ",
    "ALWAYS, tier=prod;kuik.enix.io/pull-secrets-override=false, false, NOT_OURS, ",
    "ALWAYS, tier=prod;kuik.enix.io/pull-secrets-instance=other, true, WRITE, ",
    "ON_FAILURE, tier=prod, false, NOT_OURS, ",
    "ON_FAILURE, tier=prod, true, WRITE, ",
  })
  void theKeysFollowThePolicyTheScopeAndTheTargeting(
      RewritePolicy policy, String labels, boolean written, Verdict verdict, String keys) {
    view.applyNamespace("team-a", labels.split(";"));
    view.resource(acme(policy));
    sources();

    PairDecision decision = decide(GraceClocks.NONE, written, T0);

    assertEquals(verdict, decision.verdict());
    if (verdict == Verdict.WRITE) {
      assertEquals(
          keys == null ? Set.of() : new TreeSet<>(List.of(keys.split(" "))), keys(decision));
    }
  }

  @Test
  void ifALivePodWasRewrittenUnderOnFailureExpectTheEntryServingIt() {
    view.applyNamespace("team-a", "tier=prod");
    view.resource(acme(RewritePolicy.ON_FAILURE));
    sources();
    view.pod(pod("team-a", "web", ACME, "Running", BAR + ":1.0"));

    PairDecision decision = decide();

    assertEquals(Verdict.WRITE, decision.verdict());
    assertEquals(Set.of(BAR), keys(decision));
    assertEquals(Optional.empty(), decision.hold().orElseThrow().nextExpiry());
    assertEquals(List.of(), decision.notRecognized());
  }

  @Test
  void ifAPodClaimsARewriteWhereTheWebhookCouldNotHaveMadeItExpectItCountedForNothing() {
    view.applyNamespace("team-a", "tier=dev"); // the namespaceSelector wants tier=prod
    view.resource(acme(RewritePolicy.ON_FAILURE));
    sources();
    view.pod(pod("team-a", "web", ACME, "Running", BAR + ":1.0"));

    PairDecision decision = decide();

    assertEquals(Verdict.NOT_OURS, decision.verdict());
    assertEquals(
        List.of(Claims.Why.NAMESPACE_NOT_SELECTED),
        decision.notRecognized().stream().map(Claims.NotRecognized::why).toList());
  }

  @Test
  void ifAPodClaimsAResourceThatDoesNotExistExpectTheClaimReported() {
    view.applyNamespace("team-a", "tier=prod");
    view.pod(pod("team-a", "web", ACME, "Running", BAR + ":1.0"));

    PairDecision decision = decide();

    assertEquals(Verdict.GONE, decision.verdict());
    assertEquals(
        List.of(Claims.Why.NO_SUCH_RESOURCE),
        decision.notRecognized().stream().map(Claims.NotRecognized::why).toList());
  }

  @Test
  void ifAReleasedKeyIsInItsGraceExpectItHeldAndItsExpiry() {
    view.applyNamespace("team-a", "tier=prod");
    view.resource(acme(RewritePolicy.ON_FAILURE));
    sources();
    GraceClocks released = GraceClocks.NONE.sawNeeded(FOO, T0);
    Instant now = T0.plus(Duration.ofMinutes(10));

    PairDecision decision = decide(released, true, now);

    assertEquals(Set.of(FOO), keys(decision));
    assertEquals(
        Optional.of(T0.plus(Duration.ofMinutes(15))), decision.hold().orElseThrow().nextExpiry());
    assertEquals(Set.of(), keys(decide(released, true, T0.plus(Duration.ofMinutes(15)))));
  }

  @Test
  void ifASourceIsMissingExpectItsEntryLeftOutAndSaidWhy() {
    view.applyNamespace("team-a", "tier=prod");
    view.resource(acme(RewritePolicy.ALWAYS));
    view.source("acme-pull", config("quay.io/acme", "acme", "s3cret"));

    PairDecision decision = decide();

    assertEquals(Set.of(FOO), keys(decision));
    assertEquals(
        List.of(
            "PullSecretInjectionFailed: spec.alternatives[1] (ghcr.io/acme/bar) is left out of the"
                + " pull secret: Secret kuik-system/ghcr-pull does not exist"),
        decision.warnings());
  }

  @Test
  void ifTheContentIsOver1MiBExpectTooLargeAndNothingToWrite() {
    view.applyNamespace("team-a", "tier=prod");
    view.resource(acme(RewritePolicy.ALWAYS));
    view.source(
        "acme-pull",
        new DockerConfig(
            Map.of("quay.io/acme", RegistryCredential.basic("acme", "t".repeat(1024 * 1024)))));
    view.source("ghcr-pull", config("ghcr.io/acme", "gh", "t0ken"));

    PairDecision decision = decide();

    assertEquals(Verdict.TOO_LARGE, decision.verdict());
    assertTrue(
        decision.warnings().get(0).startsWith("PullSecretTooLarge: "),
        decision.warnings().toString());
    assertTrue(decision.warnings().get(0).contains("over the 1 MiB limit"));
    assertFalse(decision.needsApply(null, true));
    assertThrows(IllegalStateException.class, decision::desiredSecret);
  }

  @Test
  void theDesiredSecretIsThePairsOwnNameInItsNamespaceOwnedByTheResource() {
    view.applyNamespace("team-a", "tier=prod");
    view.resource(acme(RewritePolicy.ALWAYS));
    sources();

    var secret = decide().desiredSecret();

    assertEquals("kuik-inject-imagealternative-acme", secret.getMetadata().getName());
    assertEquals("team-a", secret.getMetadata().getNamespace());
    assertEquals("uid-acme", secret.getMetadata().getOwnerReferences().get(0).getUid());
  }

  // ---- needsApply -----------------------------------------------------------------------------

  @ParameterizedTest(name = "if the last applied is {0} and a resync is owed: {1}, expect {2}")
  @CsvSource({
    "none, false, true",
    "none, true, true",
    "same, false, false",
    "same, true, true",
    "other, false, true",
    "other, true, true",
  })
  void aWriteGoesWhenTheContentChangedOrAResyncIsOwed(
      String applied, boolean owed, boolean expected) {
    view.applyNamespace("team-a", "tier=prod");
    view.resource(acme(RewritePolicy.ALWAYS));
    sources();
    PairDecision decision = decide();
    Long last =
        switch (applied) {
          case "none" -> null;
          case "same" -> decision.hash();
          default -> decision.hash() + 1;
        };

    assertEquals(expected, decision.needsApply(last, owed));
  }

  @Test
  void theSameViewDecidesTheSameHash() {
    view.applyNamespace("team-a", "tier=prod");
    view.resource(acme(RewritePolicy.ALWAYS));
    sources();
    long first = decide().hash();
    view.applyNamespace("team-a", "tier=prod", "owner=alice");
    assertEquals(first, decide().hash(), "a label the scope does not read changes nothing");
    view.source("acme-pull", config("quay.io/acme", "acme", "rotated"));
    assertTrue(first != decide().hash(), "a rotated credential changes the hash");
  }

  @Test
  void aFreshDecisionIsOneWithoutClocksOrMemory() {
    view.applyNamespace("team-a", "tier=dev");
    view.resource(acme(RewritePolicy.ALWAYS));
    sources();
    assertEquals(Verdict.NOT_OURS, PairDecision.decideFresh(TEAM_A, view, SETTINGS, T0).verdict());
  }
}
