package io.kuik.webhook;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.LogLines;
import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.model.RegistryCredential;
import io.kuik.ports.RegistryProber.Availability;
import io.kuik.ports.RegistryProber.Probe;
import io.kuik.registry.RegistryHttp;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Bearer and Basic flows and the answer mapping, against {@link FakeTokenRegistry}. */
class BearerTokenFlowTest {

  private static final RegistryCredential ALICE =
      RegistryCredential.basic(FakeTokenRegistry.USER, FakeTokenRegistry.PASSWORD);

  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private FakeTokenRegistry registry;
  private OciRegistryProber prober;

  @BeforeEach
  void start() throws IOException {
    registry = new FakeTokenRegistry();
    prober = prober(Duration.ofSeconds(5));
  }

  @AfterEach
  void stop() {
    prober.close();
    registry.close();
  }

  private OciRegistryProber prober(Duration timeout) {
    ProberSettings settings =
        ProberSettings.defaults().withProbeTimeout(timeout).withCacheTtl(Duration.ofSeconds(30));
    return new OciRegistryProber(settings, nanos::get);
  }

  private Availability probe(String repositoryAndTag, RegistryCredential credential) {
    return prober.probe(List.of(probeOf(repositoryAndTag, credential))).get(0);
  }

  private Probe probeOf(String repositoryAndTag, RegistryCredential credential) {
    try {
      return new Probe(ImageReference.parse(registry.host() + "/" + repositoryAndTag), credential);
    } catch (InvalidImageReferenceException e) {
      throw new IllegalArgumentException(e);
    }
  }

  @Test
  void getsATokenFromTheRealmWithTheCredentialAndFindsTheManifest() {
    assertEquals(Availability.AVAILABLE, probe("acme/app:1", ALICE));

    assertEquals(
        List.of("service=fake-registry&scope=repository:acme/app:pull"), registry.tokenQueries);
    assertTrue(
        registry.acceptHeaders.get(0).contains("application/vnd.oci.image.index.v1+json")
            && registry.acceptHeaders.get(0).contains("manifest.list.v2+json"),
        registry.acceptHeaders.get(0));
  }

  @Test
  void answersNotFoundForAMissingTag() {
    assertEquals(Availability.NOT_FOUND, probe("acme/app:2", ALICE));
  }

  @Test
  void answersUnauthorizedWhenTheAnonymousTokenGrantsNothing() {
    assertEquals(Availability.UNAUTHORIZED, probe("acme/app:1", null));
  }

  @Test
  void answersUnauthorizedWhenTheTokenServiceRefusesTheCredential() {
    assertEquals(
        Availability.UNAUTHORIZED,
        probe("acme/app:1", RegistryCredential.basic(FakeTokenRegistry.USER, "wrong")));
  }

  @Test
  void answersUnauthorizedOnForbidden() {
    assertEquals(Availability.UNAUTHORIZED, probe("acme/forbidden:1", ALICE));
  }

  @Test
  void answersUnreachableOnAServerError() {
    assertEquals(Availability.UNREACHABLE, probe("acme/broken:1", ALICE));
  }

  @Test
  void answersUnreachableWhenNothingListens() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Probe closed = new Probe(new ImageReference("127.0.0.1:" + port, "acme/app", "1", null), ALICE);

    assertEquals(List.of(Availability.UNREACHABLE), prober.probe(List.of(closed)));
  }

  @Test
  void givesUpOnASlowRegistryAfterTheProbeTimeout() {
    try (OciRegistryProber impatient = prober(Duration.ofMillis(300))) {
      List<Availability> answer =
          impatient.probe(List.of(probeOf("acme/slow:1", ALICE), probeOf("acme/app:1", ALICE)));

      assertEquals(List.of(Availability.UNREACHABLE, Availability.AVAILABLE), answer);
    }
  }

  @Test
  void reusesATokenForTheSameScopeUntilItExpires() {
    registry.expiresIn = "60";
    probe("acme/app:1", ALICE);
    int manifestRequestsAfterFirst = registry.manifestRequests.get();

    assertEquals(Availability.NOT_FOUND, probe("acme/app:2", ALICE));
    assertEquals(1, registry.tokenRequests.get());
    // The cached token goes with the first request: no second challenge.
    assertEquals(manifestRequestsAfterFirst + 1, registry.manifestRequests.get());

    nanos.addAndGet(Duration.ofSeconds(55).toNanos());
    assertEquals(Availability.NOT_FOUND, probe("acme/app:3", ALICE));
    assertEquals(2, registry.tokenRequests.get());
  }

  @Test
  void readsAnAccessTokenField() {
    registry.tokenField = "access_token";

    assertEquals(Availability.AVAILABLE, probe("acme/app:1", ALICE));
  }

  @Test
  void exchangesAnIdentityTokenByPost() {
    RegistryCredential identity =
        new RegistryCredential(null, null, FakeTokenRegistry.IDENTITY_TOKEN, null);

    assertEquals(Availability.AVAILABLE, probe("acme/app:1", identity));
    assertTrue(registry.tokenQueries.isEmpty(), "a POST, not a GET: " + registry.tokenQueries);
  }

  @Test
  void anIdentityTokensFormNamesTheServiceAndTheScopeOfTheChallenge() {
    RegistryCredential identity =
        new RegistryCredential(null, null, FakeTokenRegistry.IDENTITY_TOKEN, null);

    probe("acme/app:1", identity);

    assertEquals(
        List.of(
            Map.of(
                "grant_type", "refresh_token",
                "client_id", "kuik",
                "refresh_token", FakeTokenRegistry.IDENTITY_TOKEN,
                "service", "fake-registry",
                "scope", "repository:acme/app:pull")),
        registry.tokenForms);
  }

  @Test
  void aRegistryTokenIsSentAsTheBearerWithoutAskingTheTokenService() {
    String token = registry.grantedToken();
    RegistryCredential registryToken = new RegistryCredential(null, null, null, token);

    assertEquals(Availability.AVAILABLE, probe("acme/app:1", registryToken));
    assertEquals(Availability.NOT_FOUND, probe("acme/app:2", registryToken));

    assertEquals(0, registry.tokenRequests.get());
    assertEquals(
        List.of("null", "Bearer " + token, "Bearer " + token),
        registry.manifestAuthorizations,
        "challenged once, then the token at once");
  }

  @Test
  void everyRequestIsCountedTokenRequestsIncluded() {
    probe("acme/app:1", ALICE);

    assertEquals(registry.manifestRequests.get() + registry.tokenRequests.get(), prober.requests());
    assertEquals(3, prober.requests(), "challenge, token, manifest");
  }

  @Test
  void aLifetimeThatIsNotANumberIsTheSpecsDefaultMinute() {
    registry.expiresIn = "600";
    probe("acme/app:1", ALICE);
    nanos.addAndGet(Duration.ofSeconds(55).toNanos());
    probe("acme/app:2", ALICE);
    assertEquals(1, registry.tokenRequests.get(), "600 s: the token still serves");

    registry.expiresIn = "\"600\"";
    nanos.addAndGet(Duration.ofSeconds(600).toNanos());
    probe("acme/app:3", ALICE);
    nanos.addAndGet(Duration.ofSeconds(55).toNanos());
    probe("acme/app:4", ALICE);
    assertEquals(3, registry.tokenRequests.get(), "a string: 60 s, used up to 54");
  }

  @Test
  void aTokenServiceAnsweringARedirectStatusIsNoToken() {
    registry.tokenStatus = 300;

    assertEquals(Availability.UNREACHABLE, probe("acme/app:1", ALICE));
  }

  @Test
  void aTokenTheRegistryRefusedIsNeverSentAgainEvenWhenNoNewOneCanBeHad() {
    probe("acme/app:1", ALICE);
    String refused = registry.manifestAuthorizations.get(1);
    registry.revokeTokens();
    registry.tokenStatus = 500;

    nanos.addAndGet(Duration.ofSeconds(31).toNanos());
    assertEquals(Availability.UNREACHABLE, probe("acme/app:1", ALICE));
    nanos.addAndGet(Duration.ofSeconds(31).toNanos());
    assertEquals(Availability.UNREACHABLE, probe("acme/app:1", ALICE));

    assertEquals(
        1,
        registry.manifestAuthorizations.stream().skip(2).filter(refused::equals).count(),
        "sent once after the revocation, refused, then forgotten: "
            + registry.manifestAuthorizations);
  }

  @Test
  void stopsAtTheFirstAvailableInListOrder() {
    List<Availability> answer =
        prober.probe(
            List.of(
                probeOf("acme/app:9", ALICE),
                probeOf("acme/app:1", ALICE),
                probeOf("acme/broken:1", ALICE)));

    assertEquals(List.of(Availability.NOT_FOUND, Availability.AVAILABLE), answer);
  }

  @Test
  void answersFromTheCacheWithinTheTtlOnly() {
    probe("acme/app:1", ALICE);
    int requests = registry.manifestRequests.get() + registry.tokenRequests.get();

    assertEquals(Availability.AVAILABLE, probe("acme/app:1", ALICE));
    assertEquals(requests, registry.manifestRequests.get() + registry.tokenRequests.get());
    assertEquals(1, prober.cacheHits());

    nanos.addAndGet(Duration.ofSeconds(31).toNanos());
    assertEquals(Availability.AVAILABLE, probe("acme/app:1", ALICE));
    assertTrue(registry.manifestRequests.get() + registry.tokenRequests.get() > requests);
  }

  @Test
  void keepsAnswersForDifferentCredentialsApart() {
    assertEquals(Availability.AVAILABLE, probe("acme/app:1", ALICE));

    assertEquals(Availability.UNAUTHORIZED, probe("acme/app:1", null));
  }

  @Test
  void theTokenIsAskedForTheScopeTheChallengeNames() {
    registry.challengeScope = "repository:acme/app:pull,push";

    assertEquals(Availability.AVAILABLE, probe("acme/app:1", ALICE));
    assertEquals(
        List.of("service=fake-registry&scope=repository:acme/app:pull,push"),
        registry.tokenQueries);
  }

  @Test
  void aChallengeWithoutAScopeIsAnsweredForTheImagesPull() {
    registry.challengeScope = "";

    assertEquals(Availability.AVAILABLE, probe("acme/app:1", ALICE));
    assertEquals(
        List.of("service=fake-registry&scope=repository:acme/app:pull"), registry.tokenQueries);
  }

  @Test
  void aBasicChallengeIsAnsweredWithTheCredentialWhichThenGoesWithTheFirstRequest() {
    registry.basicAuth = true;

    assertEquals(Availability.AVAILABLE, probe("acme/app:1", ALICE));
    assertEquals(Availability.NOT_FOUND, probe("acme/app:2", ALICE));

    String basic = FakeTokenRegistry.basicOfAlice();
    assertEquals(List.of("null", basic, basic), registry.manifestAuthorizations);
    assertEquals(0, registry.tokenRequests.get());
  }

  @Test
  void aBasicChallengeWithoutACredentialIsUnauthorizedAfterOneRequest() {
    registry.basicAuth = true;

    assertEquals(Availability.UNAUTHORIZED, probe("acme/app:1", null));
    assertEquals(Availability.UNAUTHORIZED, probe("acme/app:2", null));
    assertEquals(List.of("null", "null"), registry.manifestAuthorizations);
  }

  @Test
  void aRefusalWithoutAChallengeIsUnauthorized() {
    registry.challengeless = true;

    assertEquals(Availability.UNAUTHORIZED, probe("acme/app:1", ALICE));
    assertEquals(0, registry.tokenRequests.get());
  }

  @Test
  void aManifestAnsweringMultipleChoicesIsUnreachableNotAvailable() {
    assertEquals(Availability.UNREACHABLE, probe("acme/multiple:1", ALICE));
  }

  @Test
  void anInterruptedProbeIsUnreachableAndLeavesTheThreadInterrupted() throws Exception {
    ManifestProbe manifests =
        new ManifestProbe(
            new RegistryHttp(Duration.ofSeconds(5), Set.of()), new BearerTokens(nanos::get));
    ImageReference image = ImageReference.parse(registry.host() + "/acme/app:1");

    Thread.currentThread().interrupt();
    Availability answer;
    boolean interrupted;
    try {
      answer = manifests.probe(image, ALICE);
    } finally {
      interrupted = Thread.interrupted();
    }

    assertEquals(Availability.UNREACHABLE, answer);
    assertTrue(interrupted, "the interrupt is kept for the caller");
  }

  @Test
  void aProbeOfAnImageAlreadyInFlightJoinsItWithoutARequestOfItsOwn() throws Exception {
    Probe slow = probeOf("acme/slow:1", ALICE);
    CompletableFuture<List<List<Availability>>> answers =
        CompletableFuture.supplyAsync(() -> prober.probeAll(List.of(List.of(slow), List.of(slow))));

    await("the second probe joined the first").until(() -> prober.collapsed() == 1);
    registry.release();

    assertEquals(
        List.of(List.of(Availability.AVAILABLE), List.of(Availability.AVAILABLE)),
        answers.get(10, TimeUnit.SECONDS));
    assertEquals(1, registry.manifestRequests.get());
    assertEquals(1, prober.collapsed());
    assertEquals(0, prober.cacheHits());
  }

  @Test
  void aCandidateUnansweredWhenTheClockPassedTheDeadlineIsUnreachableAtOnce() {
    Duration timeout = Duration.ofSeconds(60);
    // Every reading of this clock is a whole probe timeout after the one before.
    AtomicLong leaping = new AtomicLong();
    try (OciRegistryProber prober =
        new OciRegistryProber(
            ProberSettings.defaults().withProbeTimeout(timeout),
            () -> leaping.getAndAdd(timeout.toNanos()))) {
      List<Availability> answer =
          assertTimeoutPreemptively(
              Duration.ofSeconds(10), () -> prober.probe(List.of(probeOf("acme/slow:1", ALICE))));

      assertEquals(List.of(Availability.UNREACHABLE), answer);
    }
  }

  @Test
  void anInterruptedCallerGetsUnreachableAtOnceAndKeepsItsInterrupt() {
    Thread.currentThread().interrupt();
    List<Availability> answer;
    boolean interrupted;
    try {
      answer = prober.probe(List.of(probeOf("acme/slow:1", ALICE)));
    } finally {
      interrupted = Thread.interrupted();
    }

    assertEquals(List.of(Availability.UNREACHABLE), answer);
    assertTrue(interrupted, "the interrupt is kept for the caller");
  }

  @Test
  void probesRunOnDaemonThreadsThatNeverHoldTheProcessOpen() {
    // The clock is read on the probe's thread once it is answered.
    List<Thread> readers = new CopyOnWriteArrayList<>();
    try (OciRegistryProber watched =
        new OciRegistryProber(
            ProberSettings.defaults(),
            () -> {
              readers.add(Thread.currentThread());
              return nanos.get();
            })) {
      assertEquals(
          List.of(Availability.AVAILABLE), watched.probe(List.of(probeOf("acme/app:1", ALICE))));
    }

    List<Thread> probeThreads =
        readers.stream().filter(t -> t.getName().startsWith("kuik-probe-")).distinct().toList();
    assertEquals(1, probeThreads.size(), readers.toString());
    assertTrue(probeThreads.get(0).isDaemon());
  }

  @Test
  void logsEachProbesOutcomeAndWhetherItCarriedACredentialNeverWhichOne() {
    List<String> lines;
    try (LogLines log = LogLines.of(OciRegistryProber.class, Level.FINE)) {
      probe("acme/app:1", ALICE);
      probe("acme/app:1", null);
      await("both probes logged").until(() -> log.records().size() == 2);
      lines =
          log.records().stream()
              .map(r -> r.getMessage() + " " + List.of(r.getParameters()))
              .toList();
    }

    String pattern = "probe image={0} credential={1} outcome={2} ";
    assertEquals(
        List.of(
            pattern + "[" + registry.host() + "/acme/app:1, true, AVAILABLE]",
            pattern + "[" + registry.host() + "/acme/app:1, false, UNAUTHORIZED]"),
        lines);
  }

  @Test
  void dropsTheStaleAnswersOnceTheCacheHoldsMoreThanItsBound() {
    try (OciRegistryProber bounded =
        new OciRegistryProber(
            ProberSettings.defaults().withCacheTtl(Duration.ofSeconds(30)), nanos::get, 2)) {
      bounded.probe(List.of(probeOf("acme/app:1", ALICE)));
      nanos.addAndGet(Duration.ofSeconds(31).toNanos());
      bounded.probe(List.of(probeOf("acme/app:2", ALICE)));

      assertEquals(2, bounded.cached(), "at its bound: the stale answer is still held");

      bounded.probe(List.of(probeOf("acme/app:3", ALICE)));

      assertEquals(2, bounded.cached(), "over it: the stale answer went, the fresh ones stay");
      assertEquals(
          List.of(Availability.NOT_FOUND), bounded.probe(List.of(probeOf("acme/app:2", ALICE))));
      assertEquals(1, bounded.cacheHits());
    }
  }
}
