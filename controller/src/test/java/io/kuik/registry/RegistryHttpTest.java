package io.kuik.registry;

import static io.kuik.registry.HostileServer.redirect;
import static io.kuik.registry.HostileServer.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.webhook.TestCertificates;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one policy of requests that carry a credential, against servers on loopback that redirect
 * (301, 302, 307, 308; to another host, {@code 127.0.0.2}; to another port; from HTTPS to plain
 * HTTP), stall, trickle and answer without end: a credential goes only to the scheme, host and port
 * it was sent to, never down to plain HTTP, and no request outlives its timeout.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RegistryHttpTest {

  private static final String BASIC = "Basic YWxpY2U6czNjcmV0";
  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  private HostileServer registry;
  private HostileServer otherHost;
  private HostileServer otherPort;
  private HostileServer tlsRegistry;
  private HostileServer tlsOtherHost;
  private RegistryHttp http;

  @BeforeAll
  void start(@TempDir Path tls) throws Exception {
    TestCertificates.Pair pair = TestCertificates.generate(tls, "registry", "EC");
    registry = HostileServer.http("127.0.0.1");
    otherHost = HostileServer.http("127.0.0.2");
    otherPort = HostileServer.http("127.0.0.1");
    tlsRegistry = HostileServer.https("127.0.0.1", pair);
    tlsOtherHost = HostileServer.https("127.0.0.2", pair);
    http = new RegistryHttp(TIMEOUT, Set.of(), TestCertificates.trusting(pair.certificate()));
  }

  @AfterAll
  void stop() {
    List.of(registry, otherHost, otherPort, tlsRegistry, tlsOtherHost)
        .forEach(HostileServer::close);
  }

  @BeforeEach
  void answers() {
    for (HostileServer server : List.of(otherHost, otherPort, tlsOtherHost, registry)) {
      server.received.clear();
      server.on("/landing", status(200, "{}"));
    }
  }

  private RegistryHttp.Answer get(HostileServer server, String path, String authorization)
      throws IOException, InterruptedException {
    URI origin = URI.create(server.url(""));
    return http.send(
        RegistryHttp.Outgoing.of("GET", URI.create(server.url(path)), origin)
            .authorization(authorization));
  }

  @ParameterizedTest(name = "a {0} to another host gets there without the credential")
  @ValueSource(ints = {301, 302, 303, 307, 308})
  void aRedirectToAnotherHostIsFollowedWithoutTheCredential(int code) throws Exception {
    registry.on("/v2/", redirect(code, otherHost.url("/landing")));

    RegistryHttp.Answer answer = get(registry, "/v2/", BASIC);

    assertEquals(200, answer.status());
    assertEquals(1, otherHost.at("/landing").size());
    assertNull(otherHost.at("/landing").get(0).authorization(), "no credential to 127.0.0.2");
    assertFalse(answer.credentialSent());
    assertFalse(answer.fromOrigin());
    assertTrue(answer.withheld().contains("127.0.0.2"), answer.withheld());
  }

  @ParameterizedTest(name = "a {0} to another port gets there without the credential")
  @ValueSource(ints = {301, 302, 307, 308})
  void aRedirectToAnotherPortIsAnotherHost(int code) throws Exception {
    registry.on("/v2/", redirect(code, otherPort.url("/landing")));

    RegistryHttp.Answer answer = get(registry, "/v2/", BASIC);

    assertEquals(200, answer.status());
    assertNull(otherPort.at("/landing").get(0).authorization());
    assertFalse(answer.credentialSent());
  }

  @ParameterizedTest(name = "a {0} on the same host keeps the credential")
  @ValueSource(ints = {301, 302, 307, 308})
  void aRedirectOnTheSameHostKeepsTheCredential(int code) throws Exception {
    registry.on("/v2/", redirect(code, "/landing"));

    RegistryHttp.Answer answer = get(registry, "/v2/", BASIC);

    assertEquals(200, answer.status());
    assertEquals(BASIC, registry.at("/landing").get(0).authorization());
    assertTrue(answer.credentialSent());
    assertTrue(answer.fromOrigin());
  }

  @ParameterizedTest(name = "a {0} from HTTPS to plain HTTP is not followed")
  @ValueSource(ints = {301, 302, 307, 308})
  void aDowngradeIsNeverFollowed(int code) throws Exception {
    tlsRegistry.on("/v2/", redirect(code, registry.url("/landing")));

    RegistryHttp.Answer answer = get(tlsRegistry, "/v2/", BASIC);

    assertEquals(code, answer.status());
    assertTrue(answer.redirect());
    assertTrue(registry.at("/landing").isEmpty(), "nothing reached the plain-HTTP host");
    assertTrue(answer.withheld().contains("plain HTTP"), answer.withheld());
  }

  @Test
  void aRedirectToAnotherHttpsHostIsFollowedWithoutTheCredential() throws Exception {
    tlsRegistry.on("/v2/", redirect(307, tlsOtherHost.url("/landing")));

    RegistryHttp.Answer answer = get(tlsRegistry, "/v2/", BASIC);

    assertEquals(200, answer.status());
    assertNull(tlsOtherHost.at("/landing").get(0).authorization());
    assertFalse(answer.credentialSent());
  }

  @ParameterizedTest(name = "a {0} of a token request whose body holds the refresh token")
  @ValueSource(ints = {307, 308})
  void aBodyHoldingTheCredentialNeverGoesToAnotherHost(int code) throws Exception {
    registry.on("/token", redirect(code, otherHost.url("/landing")));
    URI realm = URI.create(registry.url("/token"));

    RegistryHttp.Answer answer =
        http.send(
            RegistryHttp.Outgoing.of("POST", realm, realm)
                .post("grant_type=refresh_token&refresh_token=the-refresh-token", true));

    assertEquals(code, answer.status());
    assertTrue(otherHost.received.isEmpty(), "the refresh token stayed home");
    assertTrue(answer.withheld().contains("in the body"), answer.withheld());
  }

  @Test
  void aFoundAfterAPostIsAGetWithoutTheBody() throws Exception {
    registry.on("/token", redirect(302, otherHost.url("/landing")));
    URI realm = URI.create(registry.url("/token"));

    RegistryHttp.Answer answer =
        http.send(
            RegistryHttp.Outgoing.of("POST", realm, realm)
                .authorization(BASIC)
                .post("grant_type=refresh_token&refresh_token=the-refresh-token", true));

    assertEquals(200, answer.status());
    HostileServer.Received landed = otherHost.at("/landing").get(0);
    assertEquals("GET", landed.method());
    assertFalse(landed.carriedCredential("the-refresh-token"), landed.toString());
  }

  @Test
  void redirectsEndAfterFiveHops() throws Exception {
    registry.on("/loop", redirect(302, "/loop"));

    RegistryHttp.Answer answer = get(registry, "/loop", BASIC);

    assertEquals(302, answer.status());
    assertEquals(1 + RegistryHttp.MAX_REDIRECTS, registry.at("/loop").size());
    assertTrue(answer.withheld().contains("more than 5 redirects"), answer.withheld());
  }

  @Test
  void aLocationThatIsNotHttpIsNotFollowed() throws Exception {
    registry.on("/v2/", redirect(302, "file:///etc/passwd"));

    RegistryHttp.Answer answer = get(registry, "/v2/", BASIC);

    assertEquals(302, answer.status());
    assertNotNull(answer.withheld());
  }

  @ParameterizedTest(name = "a credential for {1} may go to {0}: {2}")
  @CsvSource({
    "https://auth.docker.io/token, https://registry-1.docker.io, true",
    "https://127.0.0.2:5001/token, http://127.0.0.1:5000, true",
    "http://auth.example.com/token, http://registry.internal:5000, false",
    "http://127.0.0.1:5001/token, https://registry.example.com, false",
    "http://127.0.0.1:5001/token, http://127.0.0.1:5000, true",
    "http://localhost/token, http://127.0.0.1:5000, true",
    "http://registry.internal:5000/token, http://registry.internal:5000, true",
    "http://registry.internal:5001/token, http://registry.internal:5000, false",
    "ftp://registry.internal:5000/token, http://registry.internal:5000, false",
  })
  void aCredentialGoesOverPlainHttpOnlyWhereTheRegistryIsPlainItself(
      String target, String origin, boolean sent) {
    RegistryHttp policy = new RegistryHttp(TIMEOUT, Set.of("registry.internal:5000"));
    assertEquals(sent, policy.mayCarryCredential(URI.create(target), URI.create(origin)));
  }

  @Test
  void aRealmOnPlainHttpForARegistryReachedOverHttpsGetsNoCredential() throws Exception {
    URI realm = URI.create(registry.url("/landing"));
    URI origin = URI.create(tlsRegistry.url(""));

    RegistryHttp.Answer withHeader =
        http.send(RegistryHttp.Outgoing.of("GET", realm, origin).authorization(BASIC));
    RegistryHttp.Answer withBody =
        http.send(
            RegistryHttp.Outgoing.of("POST", realm, origin)
                .post("refresh_token=the-refresh-token", true));

    assertNull(registry.at("/landing").get(0).authorization(), "sent without its header");
    assertEquals(1, registry.at("/landing").size(), "the body holding a credential: not sent");
    assertFalse(withHeader.credentialSent());
    assertEquals(0, withBody.status());
    assertTrue(withBody.withheld().contains("not sent"), withBody.withheld());
  }

  @Test
  void aServerThatNeverAnswersEndsWithinTheTimeout() {
    registry.on("/stall", registry.stall());

    long started = System.nanoTime();
    assertThrows(IOException.class, () -> get(registry, "/stall", BASIC));
    assertTrue(Duration.ofNanos(System.nanoTime() - started).compareTo(TIMEOUT.plusSeconds(2)) < 0);
  }

  @Test
  void aBodyThatTricklesEndsWithinTheTimeout() {
    registry.on("/trickle", registry.trickle());

    long started = System.nanoTime();
    assertThrows(IOException.class, () -> get(registry, "/trickle", BASIC));
    assertTrue(Duration.ofNanos(System.nanoTime() - started).compareTo(TIMEOUT.plusSeconds(2)) < 0);
  }

  @Test
  void anEndlessBodyIsReadOnlyToItsLimit() throws Exception {
    registry.on("/endless", HostileServer.endless(401, 50L * 1024 * 1024));

    RegistryHttp.Answer answer = get(registry, "/endless", BASIC);

    assertEquals(401, answer.status());
    assertEquals(RegistryHttp.MAX_BODY_BYTES, answer.body().length());
  }
}
