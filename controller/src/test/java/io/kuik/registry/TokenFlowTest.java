package io.kuik.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.CredentialTrial;
import io.kuik.model.RegistryCredential;
import io.kuik.model.TrialVerdict;
import io.kuik.model.TrialVerdict.Outcome;
import io.kuik.webhook.LocalRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The credential trial against the real {@code docker-registry} (Debian's, CNCF distribution 2.8):
 * with htpasswd Basic auth (accepted, refused, down) and behind a token realm that it trusts
 * (accepted, refused at the realm). Each test is skipped, saying which script installs it, when the
 * registry is not installed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TokenFlowTest {

  private static final RegistryCredential ALICE = RegistryCredential.basic("alice", "s3cret");

  private final TokenFlow flow = new TokenFlow(new RegistryHttp(Duration.ofSeconds(5), Set.of()));
  private LocalRegistry basic;
  private LocalRegistry token;
  private TestTokenRealm realm;

  /** The registries' data, one directory each for the whole class. */
  @TempDir static Path basicDir;

  @TempDir static Path tokenDir;

  /**
   * Started by the first test that runs, shared by the others. The assumption sits here, not in
   * {@code @BeforeAll}, so that Surefire counts each test as skipped rather than none at all.
   */
  @BeforeEach
  void startRegistries() throws Exception {
    LocalRegistry.assumeInstalled();
    if (basic != null) {
      return;
    }
    basic = LocalRegistry.start(basicDir, "alice", "s3cret");
    realm = new TestTokenRealm(tokenDir);
    token =
        LocalRegistry.startWithTokenRealm(
            tokenDir,
            realm.realm(),
            TestTokenRealm.SERVICE,
            TestTokenRealm.ISSUER,
            realm.rootCertBundle());
  }

  @AfterAll
  void stop() {
    for (AutoCloseable closing : new AutoCloseable[] {basic, token, realm}) {
      try {
        if (closing != null) {
          closing.close();
        }
      } catch (Exception ignored) {
        // a test process's registry; the OS reaps it
      }
    }
  }

  private TrialVerdict tryOn(
      LocalRegistry registry, RegistryCredential credential, String... paths) {
    return flow.tryPull(
        new CredentialTrial(registry.host(), credential, new TreeSet<>(List.of(paths))));
  }

  @Test
  void htpasswdAcceptsTheRightPasswordWithBasic() {
    TrialVerdict verdict = tryOn(basic, ALICE, "acme/app");

    assertEquals(Outcome.ACCEPTED, verdict.outcome(), verdict.toString());
    assertEquals("GET /v2/ with Basic answered 200", verdict.answer());
  }

  @Test
  void htpasswdRefusesAWrongPasswordWithTheRegistrysAnswer() {
    TrialVerdict verdict = tryOn(basic, RegistryCredential.basic("alice", "wrong"), "acme/app");

    assertEquals(Outcome.REFUSED, verdict.outcome(), verdict.toString());
    assertEquals(
        "GET /v2/ with Basic answered 401 UNAUTHORIZED: authentication required", verdict.answer());
    assertFalse(verdict.answer().contains("wrong"), "no credential in the answer");
  }

  @Test
  void aTokenOnlyCredentialIsRefusedWhereTheRegistryAsksForBasic() {
    TrialVerdict verdict =
        tryOn(basic, new RegistryCredential(null, null, null, "opaque-token"), "acme/app");

    assertEquals(Outcome.REFUSED, verdict.outcome(), verdict.toString());
    assertTrue(verdict.answer().contains("no user name and password"), verdict.answer());
  }

  @Test
  void aStoppedRegistryIsUnreachable(@TempDir Path directory) throws Exception {
    String host;
    try (LocalRegistry stopped = LocalRegistry.start(directory, "alice", "s3cret")) {
      host = stopped.host();
      assertEquals(
          Outcome.ACCEPTED,
          flow.tryPull(new CredentialTrial(host, ALICE, new TreeSet<>(List.of("a")))).outcome());
    }

    TrialVerdict verdict =
        flow.tryPull(new CredentialTrial(host, ALICE, new TreeSet<>(List.of("a"))));

    assertEquals(Outcome.UNREACHABLE, verdict.outcome(), verdict.toString());
    assertTrue(verdict.answer().startsWith(host + ": ConnectException"), verdict.answer());
  }

  @Test
  void theTokenRealmGivesATokenForEveryPathsPullScopeAndTheRegistryTakesIt() {
    realm.queries.clear();

    TrialVerdict verdict = tryOn(token, ALICE, "acme/app", "acme/tools");

    assertEquals(Outcome.ACCEPTED, verdict.outcome(), verdict.toString());
    assertEquals("GET /v2/ with a token of its realm answered 200", verdict.answer());
    assertEquals(
        List.of(
            "service=kuik-test-registry&scope=repository:acme/app:pull"
                + "&scope=repository:acme/tools:pull"),
        realm.queries);
  }

  @Test
  void theTokenRealmRefusesAWrongPasswordWithItsAnswer() {
    TrialVerdict verdict = tryOn(token, RegistryCredential.basic("alice", "wrong"), "acme/app");

    assertEquals(Outcome.REFUSED, verdict.outcome(), verdict.toString());
    assertEquals(
        "the token realm 127.0.0.1 answered 401 incorrect username or password", verdict.answer());
  }

  @Test
  void aTokenTheRegistryDoesNotTrustIsRefusedByTheRegistry() {
    // A registry token (not from the realm): the registry checks its signature and refuses it.
    TrialVerdict verdict =
        tryOn(token, new RegistryCredential(null, null, null, "not.a.jwt"), "acme/app");

    assertEquals(Outcome.REFUSED, verdict.outcome(), verdict.toString());
    assertTrue(
        verdict.answer().startsWith("GET /v2/ with its registry token answered 401"),
        verdict.answer());
    assertFalse(verdict.answer().contains("not.a.jwt"));
  }
}
