package io.kuik.syncer;

import static io.kuik.syncer.SyncerHarness.alternative;
import static io.kuik.syncer.SyncerHarness.pod;
import static io.kuik.syncer.SyncerHarness.selector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.kuik.model.Auth;
import io.kuik.model.CredentialProvider;
import io.kuik.model.CredentialTrial;
import io.kuik.model.Entry;
import io.kuik.model.EntryForm;
import io.kuik.model.MintResult;
import io.kuik.model.ProviderCredential;
import io.kuik.model.ProviderExchange;
import io.kuik.model.ProviderSecrets;
import io.kuik.model.PullSecretGate;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Provider credentials as the core mints and keeps them (docs/behaviour.md#provider-credentials,
 * docs/decisions/0066-the-validity-bound-of-provider-credentials.md): minted once at the start and
 * at half their validity, kept in the install namespace so that a restart mints nothing, written
 * only with more than minValidity and the write lead left, served through a plugin failure until
 * that bound and then taken out, and a gated pod released only once its credential is written.
 */
class ProviderCredentialsTest {

  static final String ECR = "123456789012.dkr.ecr.eu-west-1.amazonaws.com";
  static final String IMAGE = ECR + "/acme/app";
  static final String SECRET = "kuik-inject-imagealternative-acme";
  static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");
  static final Duration TWELVE_HOURS = Duration.ofHours(12);

  static final CredentialProvider PROVIDER =
      new CredentialProvider(
          "ecr-credential-provider",
          List.of("*.dkr.ecr.*.amazonaws.com"),
          Duration.ofHours(1),
          CredentialProvider.PROTOCOL_V1,
          List.of("get-credentials"),
          List.of());

  private final AtomicInteger tokens = new AtomicInteger();
  private Duration validity = TWELVE_HOURS;
  private SyncerHarness cluster = harness(PROVIDER);

  private static SyncerHarness harness(CredentialProvider provider) {
    return new SyncerHarness(
        SyncerHarness.noResync()
            .withReleasesGates(true)
            .withProviders(ProviderSettings.of(Map.of(provider.name(), provider))));
  }

  /** A plugin that answers a new token for the whole registry, valid for {@link #validity}. */
  private MintResult mint(Effect.MintCredential mint) {
    return new MintResult.Minted(
        new ProviderExchange.Response(
            ProviderExchange.CacheKeyType.Registry,
            validity,
            Map.of(ECR, RegistryCredential.basic("AWS", "token-" + tokens.incrementAndGet()))));
  }

  private static final MintResult DOWN =
      new MintResult.Failed(MintResult.Failure.EXITED, "the plugin exited with status 1");

  private void install(SyncerHarness on, String provider) {
    on.resource(
        alternative(
            "acme",
            RewritePolicy.ALWAYS,
            selector("team", "a"),
            new Entry(0, EntryForm.REPOSITORY, IMAGE, new Auth(null, provider, true))));
    on.applyNamespace("team-a", "team=a");
  }

  private Optional<String> password(SyncerHarness on) {
    return on.stored("team-a", SECRET)
        .flatMap(c -> Optional.ofNullable(c.auths().get(IMAGE)))
        .map(RegistryCredential::password);
  }

  @Test
  void aCredentialIsMintedOnceAtTheStartWrittenAndKeptInTheInstallNamespace() {
    install(cluster, PROVIDER.name());
    cluster.pluginsAnswer(this::mint).mintLatency(Duration.ofSeconds(1)).start();
    cluster.advanceSeconds(5);

    assertEquals(1, cluster.mints().size());
    assertEquals(IMAGE, cluster.mints().get(0).image());
    assertEquals(Optional.of("token-1"), password(cluster));
    assertEquals(1, cluster.stores().size());
    ProviderCredential kept = cluster.stores().get(0).credential();
    assertEquals(
        new ProviderCredential.Slot(ProviderExchange.CacheKeyType.Registry, ECR), kept.slot());
    assertEquals(SyncerHarness.T0, kept.mintedAt(), "its validity counts from the request");
    assertEquals(SyncerHarness.T0.plus(TWELVE_HOURS), kept.expiresAt());
    assertEquals(
        ProviderSecrets.name(PROVIDER.name(), kept.slot()),
        cluster.stores().get(0).secret().getMetadata().getName());
  }

  @Test
  void aCredentialIsMintedAgainAtHalfItsValidityAndTheSecretsFollow() {
    install(cluster, PROVIDER.name());
    cluster.pluginsAnswer(this::mint).start();

    cluster.advance(Duration.ofHours(6).minusSeconds(1));
    assertEquals(1, cluster.mints().size());
    cluster.advance(Duration.ofSeconds(2));
    assertEquals(2, cluster.mints().size(), "at half the validity");
    assertEquals(Optional.of("token-2"), password(cluster));

    cluster.advance(Duration.ofHours(42));
    assertEquals(9, cluster.mints().size(), "every 6 hours over 48 hours, and the first");
    assertEquals(Optional.of("token-9"), password(cluster));
  }

  @Test
  void aRestartUsesTheKeptCredentialWithoutMinting() {
    install(cluster, PROVIDER.name());
    cluster.pluginsAnswer(this::mint).start();
    cluster.advance(Duration.ofHours(2));

    SyncerHarness restarted = harness(PROVIDER);
    cluster.stores().forEach(s -> restarted.source(s.secret().getMetadata().getName(), s.secret()));
    install(restarted, PROVIDER.name());
    restarted.pluginsAnswer(this::mint);
    restarted.start().advanceSeconds(5);

    assertEquals(List.of(), restarted.mints(), "the kept credential has 10 hours left");
    assertEquals(Optional.of("token-1"), password(restarted));
  }

  @Test
  void aKeptCredentialOfAnotherConfigurationIsReplacedAtOnce() {
    install(cluster, PROVIDER.name());
    cluster.pluginsAnswer(this::mint).start();
    cluster.advance(Duration.ofHours(1));

    CredentialProvider rotated =
        new CredentialProvider(
            PROVIDER.name(),
            PROVIDER.matchImages(),
            PROVIDER.defaultCacheDuration(),
            PROVIDER.apiVersion(),
            List.of("get-credentials", "--role", "another"),
            List.of());
    SyncerHarness restarted = harness(rotated);
    cluster.stores().forEach(s -> restarted.source(s.secret().getMetadata().getName(), s.secret()));
    install(restarted, PROVIDER.name());
    restarted.pluginsAnswer(this::mint).mintLatency(Duration.ofSeconds(1));
    restarted.start().advanceSeconds(0.7);
    assertEquals(1, restarted.mints().size(), "minted again at once");
    assertEquals(Optional.of("token-1"), password(restarted), "the old one serves meanwhile");
    restarted.advanceSeconds(3);
    assertEquals(Optional.of("token-2"), password(restarted));
  }

  @Test
  void aPluginOutageShorterThanTheMarginChangesNothingTenantsSee() {
    install(cluster, PROVIDER.name());
    cluster.pluginsAnswer(this::mint).start();
    cluster.advance(Duration.ofHours(5));
    Instant since = cluster.status(ACME).orElseThrow().providers().lastTransitionTime();
    cluster.pluginsAnswer(m -> DOWN);
    cluster.advance(Duration.ofHours(4)); // from 6 h to 9 h, the plugin fails
    assertEquals(Optional.of("token-1"), password(cluster), "the last credential serves");
    assertEquals(1, cluster.events(ProviderWork.FAILED_EVENT).size(), "one Event, not one a try");
    assertTrue(
        cluster.events(ProviderWork.FAILED_EVENT).get(0).message().contains("serves until"),
        cluster.events(ProviderWork.FAILED_EVENT).get(0).message());
    RoutingStatus.Condition failing = cluster.status(ACME).orElseThrow().providers();
    assertEquals("True", failing.status());
    assertEquals(ProviderCondition.FAILING, failing.reason());
    assertEquals(since, failing.lastTransitionTime(), "still True: the transition stays");
    assertTrue(since.isBefore(SyncerHarness.T0.plusSeconds(60)), "True since the first mint");

    cluster.pluginsAnswer(this::mint);
    cluster.advance(Duration.ofMinutes(6)); // the next try, within the 5-minute cap
    assertTrue(password(cluster).orElseThrow().startsWith("token-"));
    assertFalse(password(cluster).orElseThrow().equals("token-1"), "a new one once it answers");
    assertEquals(
        ProviderCondition.MINTED,
        cluster.status(ACME).orElseThrow().providers().reason(),
        "the condition follows");
    Map<String, Long> answered = cluster.syncer().counters().mints();
    assertEquals(
        Set.of(PROVIDER.name() + "|minted", PROVIDER.name() + "|exited"),
        answered.keySet(),
        "each run counted by its result");
    assertEquals((long) tokens.get(), answered.get(PROVIDER.name() + "|minted"));
    assertEquals(
        (long) (cluster.mints().size() - tokens.get()), answered.get(PROVIDER.name() + "|exited"));
  }

  @Test
  void aPluginOutageLongerThanTheMarginTakesTheCredentialOutBeforeTheBound() {
    install(cluster, PROVIDER.name());
    cluster.pluginsAnswer(this::mint).start();
    cluster.advance(Duration.ofHours(1));
    cluster.pluginsAnswer(m -> DOWN);

    Instant leaves = SyncerHarness.T0.plus(TWELVE_HOURS).minus(Duration.ofMinutes(16));
    cluster.advance(Duration.between(cluster.now(), leaves).minusSeconds(1));
    assertEquals(Optional.of("token-1"), password(cluster), "it serves until the bound");
    ProviderCredential serving =
        cluster.syncer().providerCredentials(cluster.now()).get(PROVIDER.name());
    assertEquals(SyncerHarness.T0.plus(TWELVE_HOURS), serving.expiresAt(), "what the metric reads");
    cluster.advance(Duration.ofSeconds(2));
    assertEquals(Optional.empty(), password(cluster), "out at minValidity plus the write lead");
    assertEquals(
        Map.of(),
        cluster.syncer().providerCredentials(cluster.now()),
        "a credential past the bound serves nothing");
    assertTrue(
        cluster.applies("team-a").stream()
            .filter(a -> a.content().auths().containsKey(IMAGE))
            .allMatch(a -> a.at().isBefore(leaves)),
        "never written below the bound");
    assertEquals("False", cluster.status(ACME).orElseThrow().providers().status());
    assertTrue(
        cluster.events(ProblemReports.INJECTION_FAILED).stream()
            .anyMatch(e -> e.message().contains("could not mint")),
        "the entry is reported left out");

    cluster.advance(Duration.ofMinutes(16));
    assertTrue(
        cluster.stores().get(cluster.stores().size() - 1).credential().auths().isEmpty(),
        "at its expiry the kept credential is emptied too");
  }

  @Test
  void aDeletedResourcesCredentialIsNeitherMintedAgainNorCountedAsServing() {
    install(cluster, PROVIDER.name());
    cluster.pluginsAnswer(this::mint).start();
    cluster.advance(Duration.ofHours(1));
    assertEquals(
        Set.of(PROVIDER.name()), cluster.syncer().providerCredentials(cluster.now()).keySet());

    cluster.deleteResource(ACME);
    assertEquals(
        Map.of(),
        cluster.syncer().providerCredentials(cluster.now()),
        "still valid, but written nowhere any more");
    cluster.advance(Duration.ofHours(12));

    assertEquals(1, cluster.mints().size(), "nothing injects through it any more");
  }

  @Test
  void aResourceThatTakesAProviderEntryLaterIsMintedForAtOnce() {
    cluster.resource(
        alternative(
            "acme",
            RewritePolicy.ALWAYS,
            selector("team", "a"),
            new Entry(0, EntryForm.REPOSITORY, "quay.io/acme/app", null)));
    cluster.applyNamespace("team-a", "team=a");
    cluster.pluginsAnswer(this::mint).start();
    cluster.advanceSeconds(5);
    assertEquals(List.of(), cluster.mints());

    install(cluster, PROVIDER.name());
    cluster.advanceSeconds(5);

    assertEquals(1, cluster.mints().size());
    assertEquals(Optional.of("token-1"), password(cluster));
  }

  @Test
  void aCredentialTooShortForTheBoundIsNeverWritten() {
    validity = Duration.ofMinutes(16);
    install(cluster, PROVIDER.name());
    cluster.pluginsAnswer(this::mint).start();
    cluster.advanceSeconds(5);

    assertEquals(Optional.empty(), password(cluster));
    assertTrue(
        cluster.events(ProviderWork.FAILED_EVENT).get(0).message().contains("could never be"),
        cluster.events(ProviderWork.FAILED_EVENT).toString());
    assertEquals(List.of(), cluster.stores());
  }

  @Test
  void aPluginThatAnswersForAnotherRegistryServesNothing() {
    install(cluster, PROVIDER.name());
    cluster
        .pluginsAnswer(
            m ->
                new MintResult.Minted(
                    new ProviderExchange.Response(
                        ProviderExchange.CacheKeyType.Global,
                        TWELVE_HOURS,
                        Map.of("quay.io", RegistryCredential.basic("AWS", "t")))))
        .start();
    cluster.advanceSeconds(5);

    assertEquals(Optional.empty(), password(cluster));
    assertTrue(
        cluster.events(ProviderWork.FAILED_EVENT).get(0).message().contains("none of which"));
  }

  @Test
  void anUnknownProviderIsReportedAndNeverMinted() {
    install(cluster, "gcr");
    cluster.pluginsAnswer(this::mint).start();
    cluster.advanceSeconds(5);

    assertEquals(List.of(), cluster.mints());
    assertTrue(
        cluster
            .events(ProblemReports.INJECTION_FAILED)
            .get(0)
            .message()
            .contains("not configured"));
  }

  @Test
  void aGatedPodWaitsForItsFirstCredential() {
    install(cluster, PROVIDER.name());
    cluster.pluginsAnswer(this::mint).mintLatency(Duration.ofSeconds(10)).start();
    Pod pod = pod("team-a", "web-1", ACME, "Pending", IMAGE + ":1.0");
    pod.getSpec().setSchedulingGates(List.of(new PodSchedulingGate(PullSecretGate.NAME)));
    cluster.pod(pod);

    cluster.advanceSeconds(5);
    assertEquals(List.of(), cluster.releases(), "the Secret holds no credential yet");
    cluster.advanceSeconds(10);
    assertEquals(1, cluster.releases().size());
    assertEquals(Optional.of("token-1"), password(cluster));
  }

  @Test
  void aPodGatedAfterItsCredentialLeftWaitsForTheNextMint() {
    install(cluster, PROVIDER.name());
    cluster.pluginsAnswer(this::mint).start();
    cluster.advance(Duration.ofHours(1));
    cluster.pluginsAnswer(m -> DOWN);
    Instant leaves = SyncerHarness.T0.plus(TWELVE_HOURS).minus(Duration.ofMinutes(16));
    cluster.advance(Duration.between(cluster.now(), leaves).plusSeconds(5));
    assertEquals(Optional.empty(), password(cluster), "the credential has left");

    // The webhook routed it on a probe answer it still had cached from before the bound.
    Pod pod = pod("team-a", "web-1", ACME, "Pending", IMAGE + ":1.0");
    pod.getSpec().setSchedulingGates(List.of(new PodSchedulingGate(PullSecretGate.NAME)));
    cluster.pod(pod);
    cluster.advanceSeconds(20);
    assertEquals(List.of(), cluster.releases(), "its Secret holds no credential for it");

    cluster.pluginsAnswer(this::mint);
    cluster.advance(Duration.ofMinutes(6));
    assertEquals(Optional.of("token-2"), password(cluster));
    assertEquals(1, cluster.releases().size(), "released once the new credential is written");
  }

  @Test
  void eachMintedCredentialIsTriedOnItsRegistryLikeAnyOther() {
    install(cluster, PROVIDER.name());
    cluster.pluginsAnswer(this::mint).start();
    cluster.advanceSeconds(5);

    assertEquals(1, cluster.trials().size());
    CredentialTrial trial = cluster.trials().get(0);
    assertEquals(ECR, trial.registry());
    assertEquals(Set.of("acme/app"), trial.paths());
    assertEquals(RegistryCredential.basic("AWS", "token-1"), trial.credential());

    cluster.advance(Duration.ofHours(6));
    assertEquals(2, cluster.trials().size(), "the credential minted again is tried in its turn");
    assertEquals(RegistryCredential.basic("AWS", "token-2"), cluster.trials().get(1).credential());
  }

  @Test
  void oneMintServesEveryImageOfTheRegistry() {
    cluster.resource(
        alternative(
            "acme",
            RewritePolicy.ALWAYS,
            selector("team", "a"),
            new Entry(0, EntryForm.REPOSITORY, IMAGE, new Auth(null, PROVIDER.name(), true)),
            new Entry(
                1,
                EntryForm.REPOSITORY,
                ECR + "/acme/other",
                new Auth(null, PROVIDER.name(), true))));
    cluster.applyNamespace("team-a", "team=a");
    cluster.pluginsAnswer(this::mint).mintLatency(Duration.ofSeconds(1)).start();
    cluster.advance(Duration.ofHours(13));

    assertEquals(3, cluster.mints().size(), "at 0, 6 and 12 hours: one for both images");
  }
}
