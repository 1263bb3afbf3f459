package io.kuik.kube.syncer;

import static io.kuik.kube.ClusterFixtures.INSTALL_NAMESPACE;
import static io.kuik.registry.HostileServer.challenge;
import static io.kuik.registry.HostileServer.challengeThen;
import static io.kuik.registry.HostileServer.echo;
import static io.kuik.registry.HostileServer.redirect;
import static io.kuik.registry.HostileServer.status;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kuik.kube.ClusterFixtures;
import io.kuik.kube.ForkedKuik;
import io.kuik.kube.MockCluster;
import io.kuik.kube.RoutingInformers;
import io.kuik.model.Redactor;
import io.kuik.model.RegistryCredential;
import io.kuik.model.RoutingKind;
import io.kuik.registry.HostileServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The runnable {@code kuik syncer}, in a JVM of its own, against fabric8's mock API server and
 * hostile registries on loopback, as the review of issue 34 tried it from outside: a token realm
 * answering 302 and a {@code /v2/} answering 307 to a second loopback address ({@code 127.0.0.2})
 * that records what it receives; and registries that echo the credential they refuse, with
 * generated credentials. The second address never receives a credential and never decides a
 * condition; no form of any credential shows in a status, an Event, a log line or a metric.
 */
class HostileRegistriesOnMockApiServerTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private final MockCluster cluster = MockCluster.underSyncerRbac();
  private final KubernetesClient client = cluster.client();
  private final ClusterFixtures fixtures = new ClusterFixtures(client);
  private final List<HostileServer> servers = new ArrayList<>();
  private ForkedKuik syncer;

  @BeforeEach
  void namespaces() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
  }

  @AfterEach
  void stop() {
    if (syncer != null) {
      syncer.close();
    }
    servers.forEach(HostileServer::close);
    cluster.close();
  }

  private HostileServer server(String address) throws Exception {
    HostileServer server = HostileServer.http(address);
    servers.add(server);
    return server;
  }

  private void startSyncer() {
    syncer =
        ForkedKuik.start(
                cluster.kubeconfig(),
                "syncer",
                "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
                "--leader-elect=false",
                "--debounce=50ms",
                "--credential-trial-timeout=3s",
                "--log-format=text",
                "--log-level=debug")
            .awaitReady();
  }

  @Test
  void aRealmAndARegistryRedirectingToAnotherHostNeverGiveItTheCredential() throws Exception {
    HostileServer elsewhere = server("127.0.0.2");
    elsewhere.on("/", status(200, "{\"token\":\"elsewhere\"}"));
    HostileServer realmRedirects = server("127.0.0.1");
    realmRedirects.on(
        "/v2/", challenge("Bearer realm=\"" + realmRedirects.url("/token") + "\",service=r"));
    realmRedirects.on("/token", redirect(302, elsewhere.url("/token")));
    HostileServer v2Redirects = server("127.0.0.1");
    v2Redirects.on(
        "/v2/", challengeThen("Basic realm=\"r\"", redirect(307, elsewhere.url("/v2/"))));
    RegistryCredential alice = RegistryCredential.basic("alice", "s3cret-of-alice");
    source("realm-pull", realmRedirects.host() + "/acme", alice);
    source("v2-pull", v2Redirects.host() + "/acme", alice);
    alternative("realm", realmRedirects.host() + "/acme/app", "realm-pull");
    alternative("v2", v2Redirects.host() + "/acme/app", "v2-pull");

    startSyncer();

    Map<String, Object> realm = condition("realm", "RegistryUnreachable");
    Map<String, Object> v2 = condition("v2", "RegistryUnreachable");
    assertEquals("Unknown", realm.get("status"), realm::toString);
    assertTrue(String.valueOf(realm.get("message")).contains("127.0.0.2"), realm::toString);
    assertTrue(String.valueOf(v2.get("message")).contains("not sent"), v2::toString);
    assertFalse(realmRedirects.at("/token").isEmpty(), "the realm was asked");
    assertFalse(elsewhere.received.isEmpty(), "the redirects were followed, without it");
    for (HostileServer.Received request : elsewhere.received) {
      assertFalse(request.carriedCredential("s3cret-of-alice"), "127.0.0.2 received " + request);
    }
  }

  @Test
  void registriesEchoingGeneratedCredentialsLeaveNoFormOfThemInAnythingKuikWrites()
      throws Exception {
    HostileServer echoing = server("127.0.0.1");
    echoing.on("/v2/", challengeThen("Basic realm=\"r\"", echo(401)));
    HostileServer echoingRealm = server("127.0.0.1");
    echoingRealm.on(
        "/v2/", challenge("Bearer realm=\"" + echoingRealm.url("/token") + "\",service=r"));
    echoingRealm.on("/token", echo(401));
    Random random = new Random(34);
    List<RegistryCredential> generated = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      boolean identity = i % 3 == 2;
      RegistryCredential credential =
          identity
              ? new RegistryCredential(
                  "<token>", null, io.kuik.model.RedactorTest.secret(random), null)
              : RegistryCredential.basic("user" + i, io.kuik.model.RedactorTest.secret(random));
      generated.add(credential);
      HostileServer at = i % 2 == 0 ? echoing : echoingRealm;
      source("pull-" + i, at.host() + "/acme" + i, credential);
      alternative("echo-" + i, at.host() + "/acme" + i + "/app", "pull-" + i);
    }

    startSyncer();

    for (int i = 0; i < generated.size(); i++) {
      condition("echo-" + i, "CredentialRefused");
    }
    await("every refusal's Event")
        .atMost(PATIENCE)
        .until(
            () ->
                client.v1().events().inAnyNamespace().list().getItems().stream()
                        .filter(e -> "PullSecretCredentialRefused".equals(e.getReason()))
                        .count()
                    >= generated.size());
    Redactor forms = Redactor.of(generated);
    String statuses =
        client
            .genericKubernetesResources(RoutingInformers.context(RoutingKind.IMAGE_ALTERNATIVE))
            .list()
            .getItems()
            .stream()
            .map(r -> String.valueOf(r.getAdditionalProperties().get("status")))
            .toList()
            .toString();
    String events = client.v1().events().inAnyNamespace().list().getItems().toString();
    String metrics = syncer.body("/metrics");
    assertTrue(statuses.contains(Redactor.MARK), "the echoes were there, redacted: " + statuses);
    assertFalse(forms.shows(statuses), statuses);
    assertFalse(forms.shows(events), events);
    assertFalse(forms.shows(metrics), metrics);
    assertEquals(0, syncer.terminate());
    String logs = syncer.stderr();
    assertTrue(logs.contains("credential trial"), "the trials were logged");
    assertFalse(forms.shows(logs), logs);
  }

  private void source(String name, String registryPath, RegistryCredential credential) {
    String pair = credential.username() + ":" + credential.password();
    fixtures.dockerConfigSource(
        name,
        registryPath,
        credential.identityToken() != null
            ? "\"username\":\"<token>\",\"password\":\"\",\"identitytoken\":\""
                + credential.identityToken().replace("\\", "\\\\").replace("\"", "\\\"")
                + "\""
            : "\"auth\":\""
                + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8))
                + "\"");
  }

  private void alternative(String name, String repository, String secret) {
    fixtures.injectingAlternative(name, repository, secret);
  }

  /**
   * The last condition CredentialsAccepted once its reason is {@code reason}: fabric8's mock
   * appends the items of an applied list, so the last is the latest.
   */
  @SuppressWarnings("unchecked")
  private Map<String, Object> condition(String name, String reason) {
    return await(name + "'s CredentialsAccepted " + reason)
        .atMost(PATIENCE)
        .until(
            () -> {
              var stored =
                  client
                      .genericKubernetesResources(
                          RoutingInformers.context(RoutingKind.IMAGE_ALTERNATIVE))
                      .withName(name)
                      .get();
              Map<String, Object> last = Map.of();
              Object s = stored == null ? null : stored.getAdditionalProperties().get("status");
              if (s instanceof Map<?, ?> map && map.get("conditions") instanceof List<?> list) {
                for (Object c : list) {
                  if (c instanceof Map<?, ?> m && "CredentialsAccepted".equals(m.get("type"))) {
                    last = (Map<String, Object>) m;
                  }
                }
              }
              return last;
            },
            c -> reason.equals(c.get("reason")));
  }
}
