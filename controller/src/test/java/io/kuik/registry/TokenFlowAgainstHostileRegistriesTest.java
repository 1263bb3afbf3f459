package io.kuik.registry;

import static io.kuik.registry.HostileServer.challenge;
import static io.kuik.registry.HostileServer.challengeThen;
import static io.kuik.registry.HostileServer.echo;
import static io.kuik.registry.HostileServer.redirect;
import static io.kuik.registry.HostileServer.status;
import static io.kuik.registry.HostileServer.token;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.CredentialTrial;
import io.kuik.model.Redactor;
import io.kuik.model.RegistryCredential;
import io.kuik.model.TrialVerdict;
import io.kuik.webhook.TestCertificates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The syncer's credential trial against registries and realms that redirect to another host ({@code
 * 127.0.0.2}), echo what they are sent, or stall: the other host never receives the credential, a
 * verdict is never drawn from an answer the credential did not reach, and no verdict holds any form
 * of it.
 */
class TokenFlowAgainstHostileRegistriesTest {

  private static final RegistryCredential ALICE =
      RegistryCredential.basic("alice", "pa ss/wörd+&=\"x");
  private static final RegistryCredential IDENTITY =
      new RegistryCredential("<token>", null, "the-identity-token", null);

  private HostileServer registry;
  private HostileServer elsewhere;
  private TokenFlow flow;

  @BeforeEach
  void start() throws Exception {
    registry = HostileServer.http("127.0.0.1");
    elsewhere = HostileServer.http("127.0.0.2");
    elsewhere.on("/", status(200, "{\"token\":\"from-elsewhere\"}"));
    flow = new TokenFlow(new RegistryHttp(Duration.ofSeconds(2), Set.of()));
  }

  @AfterEach
  void stop() {
    registry.close();
    elsewhere.close();
  }

  private TrialVerdict trial(HostileServer at, RegistryCredential credential) {
    return flow.tryPull(
        new CredentialTrial(at.host(), credential, new TreeSet<>(List.of("acme/app"))));
  }

  private void assertNothingReachedElsewhere(String... secrets) {
    for (HostileServer.Received request : elsewhere.received) {
      assertFalse(request.carriedCredential(secrets), "127.0.0.2 received " + request);
    }
  }

  @ParameterizedTest(name = "a realm answering {0} to another host gets no credential there")
  @ValueSource(ints = {301, 302, 307, 308})
  void aRealmRedirectingToAnotherHost(int code) {
    registry.on("/v2/", challenge("Bearer realm=\"" + registry.url("/token") + "\",service=r"));
    registry.on("/token", redirect(code, elsewhere.url("/token")));

    TrialVerdict basic = trial(registry, ALICE);
    TrialVerdict identity = trial(registry, IDENTITY);

    assertNothingReachedElsewhere("the-identity-token", "pa");
    assertEquals(TrialVerdict.Outcome.UNREACHABLE, basic.outcome(), basic.answer());
    assertEquals(TrialVerdict.Outcome.UNREACHABLE, identity.outcome(), identity.answer());
    assertTrue(basic.answer().contains("127.0.0.2"), basic.answer());
  }

  @ParameterizedTest(name = "/v2/ answering {0} to another host: no credential, no verdict")
  @ValueSource(ints = {301, 302, 307, 308})
  void aRegistryRedirectingToAnotherHost(int code) {
    registry.on("/v2/", redirect(code, elsewhere.url("/v2/")));

    TrialVerdict verdict = trial(registry, ALICE);

    assertNothingReachedElsewhere();
    assertEquals(TrialVerdict.Outcome.UNREACHABLE, verdict.outcome(), verdict.answer());
  }

  @Test
  void aRegistryThatRedirectsOnlyOnceTheCredentialComesGivesNoVerdict() {
    registry.on("/v2/", challengeThen("Basic realm=\"r\"", redirect(307, elsewhere.url("/v2/"))));

    TrialVerdict verdict = trial(registry, ALICE);

    assertNothingReachedElsewhere();
    assertEquals(TrialVerdict.Outcome.UNREACHABLE, verdict.outcome(), verdict.answer());
    assertTrue(verdict.answer().contains("not sent"), verdict.answer());
  }

  @Test
  void aChallengeFromTheHostARedirectLedToIsNotAnswered() {
    registry.on("/v2/", redirect(302, elsewhere.url("/v2/")));
    elsewhere.on("/v2/", challenge("Basic realm=\"elsewhere\""));

    TrialVerdict verdict = trial(registry, ALICE);

    assertNothingReachedElsewhere();
    assertEquals(TrialVerdict.Outcome.UNREACHABLE, verdict.outcome());
  }

  @Test
  void aRealmOnPlainHttpForARegistryReachedOverHttpsGetsNothing(@TempDir Path tls)
      throws Exception {
    TestCertificates.Pair pair = TestCertificates.generate(tls, "registry", "EC");
    try (HostileServer secure = HostileServer.https("127.0.0.1", pair)) {
      secure.on("/v2/", challenge("Bearer realm=\"" + registry.url("/token") + "\""));
      TokenFlow overTls =
          new TokenFlow(
              new RegistryHttp(
                  Duration.ofSeconds(2), Set.of(), TestCertificates.trusting(pair.certificate())));

      TrialVerdict verdict =
          overTls.tryPull(
              new CredentialTrial(secure.host(), ALICE, new TreeSet<>(List.of("acme/app"))));

      assertTrue(registry.at("/token").isEmpty(), "the plain-HTTP realm was not even asked");
      assertEquals(TrialVerdict.Outcome.UNREACHABLE, verdict.outcome());
    }
  }

  @Test
  void aRegistryThatEchoesTheCredentialLeavesNoFormOfItInTheVerdict() {
    registry.on("/v2/", challengeThen("Basic realm=\"r\"", echo(401)));

    TrialVerdict verdict = trial(registry, ALICE);

    assertEquals(TrialVerdict.Outcome.REFUSED, verdict.outcome());
    assertTrue(verdict.answer().contains(Redactor.MARK), verdict.answer());
    assertFalse(Redactor.of(List.of(ALICE)).shows(verdict.answer()), verdict.answer());
  }

  @Test
  void aRealmThatEchoesTheRefreshTokenAndARegistryThatEchoesTheBearerLeaveNeither() {
    registry.on(
        "/v2/", challengeThen("Bearer realm=\"" + registry.url("/token") + "\"", echo(403)));
    registry.on("/token", token("the-bearer-token-of-the-realm"));

    TrialVerdict bearer = trial(registry, IDENTITY);
    registry.on("/token", echo(401));
    TrialVerdict refresh = trial(registry, IDENTITY);

    assertEquals(TrialVerdict.Outcome.REFUSED, bearer.outcome(), bearer.answer());
    assertFalse(bearer.answer().contains("the-bearer-token-of-the-realm"), bearer.answer());
    assertEquals(TrialVerdict.Outcome.REFUSED, refresh.outcome(), refresh.answer());
    assertFalse(refresh.answer().contains("the-identity-token"), refresh.answer());
  }

  @Test
  void aRegistryThatStallsIsUnreachableWithinTheTimeout() {
    registry.on("/v2/", registry.stall());

    long started = System.nanoTime();
    TrialVerdict verdict = trial(registry, ALICE);

    assertEquals(TrialVerdict.Outcome.UNREACHABLE, verdict.outcome());
    assertTrue(Duration.ofNanos(System.nanoTime() - started).toSeconds() < 4);
  }
}
