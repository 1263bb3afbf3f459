package io.kuik.webhook;

import static io.kuik.registry.HostileServer.challenge;
import static io.kuik.registry.HostileServer.challengeThen;
import static io.kuik.registry.HostileServer.redirect;
import static io.kuik.registry.HostileServer.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.kuik.model.ImageReference;
import io.kuik.model.RegistryCredential;
import io.kuik.ports.RegistryProber.Availability;
import io.kuik.ports.RegistryProber.Probe;
import io.kuik.registry.HostileServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The webhook's probes against registries that redirect to another host ({@code 127.0.0.2}): the
 * other host never receives the credential, whether the manifest or the token realm redirects, and
 * a challenge of the host a redirect led to is not answered.
 */
class ProbesAgainstHostileRegistriesTest {

  private static final RegistryCredential ALICE =
      RegistryCredential.basic("alice", "s3cret-of-alice");
  private static final RegistryCredential IDENTITY =
      new RegistryCredential("<token>", null, "the-identity-token", null);

  private HostileServer registry;
  private HostileServer elsewhere;
  private OciRegistryProber prober;

  @BeforeEach
  void start() throws Exception {
    registry = HostileServer.http("127.0.0.1");
    elsewhere = HostileServer.http("127.0.0.2");
    prober =
        new OciRegistryProber(
            ProberSettings.defaults()
                .withProbeTimeout(Duration.ofSeconds(3))
                .withCacheTtl(Duration.ZERO));
  }

  @AfterEach
  void stop() {
    prober.close();
    registry.close();
    elsewhere.close();
  }

  private Availability probe(RegistryCredential credential) throws Exception {
    return prober
        .probe(
            List.of(new Probe(ImageReference.parse(registry.host() + "/acme/app:1.0"), credential)))
        .get(0);
  }

  private void assertNothingReachedElsewhere() {
    for (HostileServer.Received request : elsewhere.received) {
      assertFalse(
          request.carriedCredential("s3cret-of-alice", "the-identity-token"),
          "127.0.0.2 received " + request);
    }
  }

  @ParameterizedTest(name = "a manifest answering {0} to another host that asks for Basic")
  @ValueSource(ints = {301, 302, 307, 308})
  void aManifestRedirectedToAnotherHostThatChallenges(int code) throws Exception {
    registry.on("/v2/", redirect(code, elsewhere.url("/v2/acme/app/manifests/1.0")));
    elsewhere.on("/v2/", challengeThen("Basic realm=\"elsewhere\"", status(200, "{}")));

    Availability availability = probe(ALICE);

    assertNothingReachedElsewhere();
    assertNotEquals(Availability.AVAILABLE, availability);
  }

  @Test
  void aManifestThatRedirectsOnceAuthenticatedGetsThereWithoutTheCredential() throws Exception {
    registry.on(
        "/v2/", challengeThen("Basic realm=\"r\"", redirect(307, elsewhere.url("/blobs/signed"))));
    elsewhere.on("/blobs/", status(200, "{}"));

    Availability availability = probe(ALICE);

    assertNothingReachedElsewhere();
    assertEquals(Availability.AVAILABLE, availability, "a pre-signed redirect still answers");
    assertEquals(1, elsewhere.at("/blobs/signed").size());
  }

  @ParameterizedTest(name = "a token realm answering {0} to another host")
  @ValueSource(ints = {301, 302, 307, 308})
  void aRealmRedirectedToAnotherHost(int code) throws Exception {
    registry.on("/v2/", challenge("Bearer realm=\"" + registry.url("/token") + "\",service=r"));
    registry.on("/token", redirect(code, elsewhere.url("/token")));
    elsewhere.on("/token", status(200, "{\"token\":\"from-elsewhere\"}"));

    probe(ALICE);
    probe(IDENTITY);

    assertNothingReachedElsewhere();
  }
}
