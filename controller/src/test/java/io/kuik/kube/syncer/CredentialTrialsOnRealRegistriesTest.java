package io.kuik.kube.syncer;

import static io.kuik.kube.ClusterFixtures.INSTALL_NAMESPACE;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kuik.kube.ClusterFixtures;
import io.kuik.kube.MockCluster;
import io.kuik.kube.RoutingInformers;
import io.kuik.model.RoutingKind;
import io.kuik.registry.TestTokenRealm;
import io.kuik.webhook.LocalRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code kuik syncer} on a mock API server tries each injecting entry's credential on real
 * {@code docker-registry} processes (Debian's, CNCF distribution): one with htpasswd Basic auth,
 * one behind a token realm it trusts, and a port where nothing listens. The condition
 * CredentialsAccepted, status.credentials, the Event PullSecretCredentialRefused and the metric
 * kuik_syncer_credential_trials_total say what each answered. Skipped, saying which script installs
 * it, when the registry is not installed.
 */
class CredentialTrialsOnRealRegistriesTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private final MockCluster cluster = MockCluster.underSyncerRbac();
  private final KubernetesClient client = cluster.client();
  private final ClusterFixtures fixtures = new ClusterFixtures(client);
  private RunningSyncer syncer;
  private LocalRegistry basic;
  private LocalRegistry token;
  private TestTokenRealm realm;

  @AfterEach
  void stop() {
    if (syncer != null) {
      syncer.close();
    }
    cluster.close();
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

  @Test
  void eachRegistrysAnswerIsTheResourcesConditionAndARefusalIsAnEventAndAMetric(
      @TempDir Path basicDir, @TempDir Path tokenDir) throws Exception {
    assumeTrue(LocalRegistry.installed(), LocalRegistry.INSTALL_HINT);
    basic = LocalRegistry.start(basicDir, "alice", "s3cret");
    realm = new TestTokenRealm(tokenDir);
    token =
        LocalRegistry.startWithTokenRealm(
            tokenDir,
            realm.realm(),
            TestTokenRealm.SERVICE,
            TestTokenRealm.ISSUER,
            realm.rootCertBundle());
    String down = "127.0.0.1:" + closedPort();
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    source("accepted-pull", basic.host() + "/acme", "alice", "s3cret");
    source("refused-pull", basic.host() + "/acme", "alice", "not-the-password");
    source("token-pull", token.host() + "/acme", TestTokenRealm.USER, TestTokenRealm.PASSWORD);
    source("down-pull", down + "/acme", "alice", "s3cret");
    alternative("accepted", basic.host() + "/acme/app", "accepted-pull");
    alternative("refused", basic.host() + "/acme/app", "refused-pull");
    alternative("token", token.host() + "/acme/app", "token-pull");
    alternative("down", down + "/acme/app", "down-pull");
    syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
            "--leader-elect=false",
            "--debounce=50ms",
            "--credential-trial-timeout=3s",
            "--log-format=text");

    assertCondition("accepted", "True", "CredentialsAccepted", "accepted by " + basic.host());
    assertCondition("refused", "False", "CredentialRefused", "401");
    assertCondition("token", "True", "CredentialsAccepted", "accepted by " + token.host());
    assertCondition("down", "Unknown", "RegistryUnreachable", "did not answer");
    assertEquals(
        Map.of("entry", basic.host() + "/acme/app", "registry", basic.host(), "outcome", "Refused"),
        Map.of(
            "entry", credentials("refused").get("entry"),
            "registry", credentials("refused").get("registry"),
            "outcome", credentials("refused").get("outcome")));
    assertTrue(
        realm.queries.stream().anyMatch(q -> q.contains("scope=repository:acme/app:pull")),
        "the realm was asked for the entry's pull scope: " + realm.queries);

    List<Event> refusals =
        await("the Event of the refusal")
            .atMost(PATIENCE)
            .until(() -> events("PullSecretCredentialRefused"), list -> !list.isEmpty());
    assertEquals(1, refusals.size(), refusals::toString);
    assertEquals("refused", refusals.get(0).getInvolvedObject().getName());
    assertEquals("Warning", refusals.get(0).getType());
    assertFalse(refusals.get(0).getMessage().contains("not-the-password"));
    assertTrue(
        events("PullSecretCredentialRefused").stream()
            .noneMatch(e -> !"refused".equals(e.getInvolvedObject().getName())));

    String metrics = syncer.get("/metrics").body();
    assertTrue(
        metrics.contains("kuik_syncer_credential_trials_total{result=\"refused\"} 1.0"), metrics);
    assertTrue(
        metrics.contains("kuik_syncer_credential_trials_total{result=\"accepted\"} 2.0"), metrics);
    assertTrue(
        metrics.contains("kuik_syncer_credential_trials_total{result=\"unreachable\"} 1.0"),
        metrics);
    String everything =
        client
            .genericKubernetesResources(RoutingInformers.context(RoutingKind.IMAGE_ALTERNATIVE))
            .list()
            .toString();
    assertFalse(everything.contains("not-the-password"), "no credential in a status");
    assertFalse(everything.contains("s3cret"), "no credential in a status");
  }

  private void assertCondition(String name, String status, String reason, String words) {
    Map<String, Object> condition;
    try {
      condition =
          await(name + "'s CredentialsAccepted " + status)
              .atMost(PATIENCE)
              .until(() -> condition(name), c -> status.equals(c.get("status")));
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError(name + ": " + status(stored(name)), e);
    }
    assertEquals(reason, condition.get("reason"), condition::toString);
    assertTrue(String.valueOf(condition.get("message")).contains(words), condition::toString);
  }

  private void source(String name, String registryPath, String user, String password) {
    String auth =
        Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    fixtures.dockerConfigSource(
        name,
        registryPath,
        "\"username\":\""
            + user
            + "\",\"password\":\""
            + password
            + "\",\"auth\":\""
            + auth
            + "\"");
  }

  private void alternative(String name, String repository, String secret) {
    fixtures.injectingAlternative(name, repository, secret);
  }

  private GenericKubernetesResource stored(String name) {
    return client
        .genericKubernetesResources(RoutingInformers.context(RoutingKind.IMAGE_ALTERNATIVE))
        .withName(name)
        .get();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> status(GenericKubernetesResource resource) {
    Object status = resource == null ? null : resource.getAdditionalProperties().get("status");
    return status instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
  }

  /**
   * The last condition CredentialsAccepted: fabric8's mock appends the items of an applied list to
   * those it holds, where a real API server replaces an atomic list, so the last is the latest.
   */
  @SuppressWarnings("unchecked")
  private Map<String, Object> condition(String name) {
    Map<String, Object> last = Map.of();
    if (status(stored(name)).get("conditions") instanceof List<?> list) {
      for (Object c : list) {
        if (c instanceof Map<?, ?> map && "CredentialsAccepted".equals(map.get("type"))) {
          last = (Map<String, Object>) map;
        }
      }
    }
    return last;
  }

  /** The last item of status.credentials, the latest (see {@link #condition}). */
  @SuppressWarnings("unchecked")
  private Map<String, Object> credentials(String name) {
    if (status(stored(name)).get("credentials") instanceof List<?> list && !list.isEmpty()) {
      return (Map<String, Object>) list.get(list.size() - 1);
    }
    return Map.of();
  }

  private List<Event> events(String reason) {
    return client.v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> reason.equals(e.getReason()))
        .toList();
  }

  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
