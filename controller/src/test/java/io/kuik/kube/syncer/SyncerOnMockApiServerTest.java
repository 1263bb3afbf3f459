package io.kuik.kube.syncer;

import static io.kuik.kube.ClusterFixtures.INJECTED;
import static io.kuik.kube.ClusterFixtures.INSTALL_NAMESPACE;
import static io.kuik.kube.ClusterFixtures.REPOSITORY;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kuik.kube.ClusterFixtures;
import io.kuik.kube.MockCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The real {@code kuik syncer} command against fabric8's mock API server: the documented Secrets
 * appear, change and empty as the cluster changes (docs/behaviour.md). The server holds the syncer
 * to the chart's RBAC, and every test also fails if it refused a request.
 */
class SyncerOnMockApiServerTest {

  private static final Duration PATIENCE = Duration.ofSeconds(20);

  private final MockCluster cluster = MockCluster.underSyncerRbac();
  private final KubernetesClient client = cluster.client();
  private final ClusterFixtures fixtures = new ClusterFixtures(client);
  private RunningSyncer syncer;

  @AfterEach
  void stop() {
    try {
      if (syncer != null) {
        syncer.close();
      }
      assertEquals(
          List.of(),
          cluster.serviceAccountRequests().stream().filter(r -> r.code() == 403).toList(),
          "requests of the syncer that the chart's RBAC refuses");
    } finally {
      cluster.close();
    }
  }

  private void startSyncer(String... extraFlags) {
    String[] base = {
      "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
      "--leader-elect=false",
      "--debounce=50ms",
      "--log-format=text"
    };
    String[] flags = new String[base.length + extraFlags.length];
    System.arraycopy(base, 0, flags, 0, base.length);
    System.arraycopy(extraFlags, 0, flags, base.length, extraFlags.length);
    syncer = new RunningSyncer(flags);
  }

  @Test
  void alwaysWritesTheSecretInEveryNamespaceBeforeAnyPod() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.sourceSecret("alice");
    fixtures.imageAlternative("Always", "{}");

    startSyncer();
    fixtures.namespace("team-b", Map.of());

    for (String namespace : new String[] {"team-a", "team-b"}) {
      await(namespace + "'s " + INJECTED)
          .atMost(PATIENCE)
          .until(() -> Map.of(REPOSITORY, "alice").equals(fixtures.injectedUsers(namespace)));
    }
  }

  @Test
  void onFailureWritesTheSecretOnlyAfterTheFirstRewrite() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.sourceSecret("alice");
    fixtures.imageAlternative("OnFailure", "{}");
    startSyncer();
    await("the syncer has reconciled")
        .atMost(PATIENCE)
        .until(() -> syncer.get("/readyz").statusCode() == 200);
    await().during(Duration.ofMillis(500)).atMost(PATIENCE).until(() -> noSecretIn("team-a"));

    fixtures.rewrittenPod("team-a", "app-1");

    await("team-a's " + INJECTED)
        .atMost(PATIENCE)
        .until(() -> Map.of(REPOSITORY, "alice").equals(fixtures.injectedUsers("team-a")));
  }

  @Test
  void aChangedSourceSecretReachesTheInjectedSecret() {
    io.kuik.kube.LogRedaction.use(io.kuik.model.Redactor.none()); // what an earlier test left
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.sourceSecret("alice");
    fixtures.imageAlternative("Always", "{}");
    startSyncer();
    await().atMost(PATIENCE).until(() -> fixtures.injectedUsers("team-a") != null);

    fixtures.sourceSecret("bob");

    await("the rotated credential in team-a")
        .atMost(PATIENCE)
        .until(() -> Map.of(REPOSITORY, "bob").equals(fixtures.injectedUsers("team-a")));
    // Every log line of the process passes the redactor of the credentials the core knows now:
    // the rotated one is taken out of any line that would show it.
    String line = "registry said: password-of-bob";
    await("bob's password redacted in the log")
        .atMost(PATIENCE)
        .until(() -> !io.kuik.kube.LogRedaction.current().redact(line).contains("password-of-bob"));
  }

  @Test
  void aDeletedSecretIsWrittenAgainAtTheNextResync() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.sourceSecret("alice");
    fixtures.imageAlternative("Always", "{}");
    startSyncer("--resync-period=1s");
    await().atMost(PATIENCE).until(() -> fixtures.injectedUsers("team-a") != null);

    client.secrets().inNamespace("team-a").withName(INJECTED).delete();
    assertNull(fixtures.injectedUsers("team-a"), "the test deleted it");

    await("the restored Secret")
        .atMost(PATIENCE)
        .until(() -> Map.of(REPOSITORY, "alice").equals(fixtures.injectedUsers("team-a")));
  }

  @Test
  void aNamespaceLeavingTheScopeIsLeftWithEmptyAuths() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of("tier", "prod"));
    fixtures.sourceSecret("alice");
    fixtures.imageAlternative("Always", "{matchLabels: {tier: prod}}");
    startSyncer();
    await().atMost(PATIENCE).until(() -> fixtures.injectedUsers("team-a") != null);

    fixtures.namespace("team-a", Map.of("tier", "dev"));

    await("team-a's Secret emptied to {\"auths\":{}}")
        .atMost(PATIENCE)
        .until(() -> Map.of().equals(fixtures.injectedUsers("team-a")));
  }

  @Test
  void aMissingSourceSecretIsReportedAsAWarningEventOnTheResource() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.imageAlternative("Always", "{}");

    startSyncer();

    await("a PullSecretInjectionFailed event on ImageAlternative/acme")
        .atMost(PATIENCE)
        .until(() -> injectionFailedEvent() != null);
    Event event = injectionFailedEvent();
    assertEquals("Warning", event.getType());
    assertEquals("kuik.enix.io/v1alpha1", event.getInvolvedObject().getApiVersion());
    assertEquals("ImageAlternative", event.getInvolvedObject().getKind());
    assertEquals(
        client
            .resources(io.kuik.model.crd.ImageAlternative.class)
            .withName("acme")
            .get()
            .getMetadata()
            .getUid(),
        event.getInvolvedObject().getUid());
  }

  private Event injectionFailedEvent() {
    return client.v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> "PullSecretInjectionFailed".equals(e.getReason()))
        .filter(e -> "acme".equals(e.getInvolvedObject().getName()))
        .findFirst()
        .orElse(null);
  }

  private boolean noSecretIn(String namespace) {
    return fixtures.injectedUsers(namespace) == null;
  }
}
