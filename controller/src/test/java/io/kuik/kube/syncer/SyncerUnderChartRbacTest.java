package io.kuik.kube.syncer;

import static io.kuik.kube.ClusterFixtures.INJECTED;
import static io.kuik.kube.ClusterFixtures.INSTALL_NAMESPACE;
import static io.kuik.kube.ClusterFixtures.REPOSITORY;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kuik.kube.ClusterFixtures;
import io.kuik.kube.Metrics;
import io.kuik.kube.MockCluster;
import io.kuik.kube.RbacDispatcher;
import io.kuik.model.crd.ImageAlternative;
import io.kuik.syncer.Answer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The real {@code kuik syncer} command on a mock API server that enforces the chart's own RBAC for
 * the syncer's ServiceAccount and records every request: what the syncer asks of the API server,
 * not only what ends up stored. The syncer reads Secrets only in the cluster resource namespace, by
 * its informer's list and watch, and writes them blind (a server-side apply is a PATCH); it never
 * reads a Secret it wrote and never deletes one.
 */
class SyncerUnderChartRbacTest {

  private static final Duration PATIENCE = Duration.ofSeconds(20);
  private static final String INSTALL_SECRETS =
      "/api/v1/namespaces/" + INSTALL_NAMESPACE + "/secrets";

  private final MockCluster cluster = MockCluster.underSyncerRbac();
  private final KubernetesClient client = cluster.client();
  private final ClusterFixtures fixtures = new ClusterFixtures(client);
  private RunningSyncer syncer;

  @AfterEach
  void stop() {
    if (syncer != null) {
      syncer.close();
    }
    cluster.close();
  }

  @Test
  void theSyncerReadsSecretsOnlyByListingAndWatchingTheClusterResourceNamespace() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.sourceSecret("alice");
    fixtures.imageAlternative("Always", "{}");
    syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
            "--leader-elect=true",
            "--lease-duration=3s",
            "--lease-renew-deadline=2s",
            "--lease-retry-period=200ms",
            "--debounce=50ms",
            "--resync-period=1s",
            "--log-format=text");

    // Every kind of write: a first apply, a new namespace, a rotated source, a resync's re-apply,
    // a namespace leaving the scope, and the resource deleted (its Secrets are the GC's).
    eventually(
        "team-a's first Secret",
        () -> Map.of(REPOSITORY, "alice").equals(fixtures.injectedUsers("team-a")));
    fixtures.namespace("team-b", Map.of());
    fixtures.sourceSecret("bob");
    eventually(
        "the rotated credential in team-b",
        () -> Map.of(REPOSITORY, "bob").equals(fixtures.injectedUsers("team-b")));
    client.secrets().inNamespace("team-a").withName(INJECTED).delete();
    eventually(
        "team-a's Secret restored at a resync", () -> fixtures.injectedUsers("team-a") != null);
    fixtures.imageAlternative("Always", "{matchLabels: {tier: prod}}");
    eventually("team-a emptied", () -> Map.of().equals(fixtures.injectedUsers("team-a")));
    client.resources(ImageAlternative.class).withName("acme").delete();
    eventually(
        "the syncer handled the deletion: no pair left",
        () -> Metrics.value(syncer.get("/metrics").body(), "kuik_syncer_pairs") == 0);

    List<RbacDispatcher.Observed> secrets =
        cluster.serviceAccountRequests().stream()
            .filter(r -> r.attributes().resource().equals("secrets"))
            .toList();
    Set<String> reads = new TreeSet<>();
    Set<String> writes = new TreeSet<>();
    for (RbacDispatcher.Observed r : secrets) {
      String verb = r.attributes().verb();
      if (verb.equals("patch")) {
        writes.add(verb);
      } else {
        reads.add(verb + " " + r.attributes().path());
      }
    }
    assertEquals(
        Set.of("list " + INSTALL_SECRETS, "watch " + INSTALL_SECRETS),
        reads,
        "the syncer's Secret requests other than applies: " + secrets);
    assertEquals(Set.of("patch"), writes, "the syncer wrote by server-side apply only");
    assertNoRequestRefused();
  }

  @Test
  void theSyncerListsAndWatchesOnlyThePodsTheWebhookLabelledAndListsEverythingInPages() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.sourceSecret("alice");
    fixtures.imageAlternative("OnFailure", "{}");
    syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
            "--leader-elect=false",
            "--debounce=50ms",
            "--log-format=text");
    fixtures.rewrittenPod("team-a", "web-1");
    eventually(
        "team-a's Secret for its rewritten pod",
        () -> Map.of(REPOSITORY, "alice").equals(fixtures.injectedUsers("team-a")));

    List<RbacDispatcher.Observed> podReads =
        cluster.serviceAccountRequests().stream()
            .filter(r -> r.attributes().resource().equals("pods"))
            .toList();
    Set<String> verbs = new TreeSet<>();
    for (RbacDispatcher.Observed r : podReads) {
      verbs.add(r.attributes().verb());
      assertTrue(
          r.query().contains("labelSelector=kuik.enix.io%2Fimages-rewritten%3Dtrue"),
          "the label selector in " + r.attributes().verb() + " ?" + r.query());
    }
    assertEquals(Set.of("list", "watch"), verbs, "the pod informer's requests: " + podReads);
    List<RbacDispatcher.Observed> lists =
        cluster.serviceAccountRequests().stream()
            .filter(r -> r.attributes().verb().equals("list"))
            .toList();
    Set<String> listed = new TreeSet<>();
    for (RbacDispatcher.Observed r : lists) {
      listed.add(r.attributes().resource());
      assertTrue(r.query().contains("limit=500"), "a page limit in list ?" + r.query());
    }
    assertEquals(
        Set.of(
            "pods",
            "namespaces",
            "imagealternatives",
            "imagemirrors",
            "secrets",
            "validatingadmissionpolicies",
            "validatingadmissionpolicybindings"),
        listed,
        "every informer listed (the policy's two by name)");
    assertNoRequestRefused();
  }

  @Test
  void theMockRefusesTheSyncerWhatTheChartDoesNotGrant() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.sourceSecret("alice");
    try (KubernetesClient asSyncer = new KubernetesClientBuilder().build()) {
      assertEquals(
          "acme-pull",
          asSyncer
              .secrets()
              .inNamespace(INSTALL_NAMESPACE)
              .withName(ClusterFixtures.SOURCE_SECRET)
              .get()
              .getMetadata()
              .getName());
      assertTrue(asSyncer.pods().inAnyNamespace().list().getItems().isEmpty(), "pods are readable");
      for (Runnable refused :
          List.<Runnable>of(
              () -> asSyncer.secrets().inNamespace("team-a").withName(INJECTED).get(),
              () -> asSyncer.secrets().inAnyNamespace().list(),
              () -> asSyncer.secrets().inNamespace("team-a").withName(INJECTED).delete(),
              () -> asSyncer.namespaces().withName("team-a").delete())) {
        KubernetesClientException e = assertThrows(KubernetesClientException.class, refused::run);
        assertEquals(403, e.getCode(), e.getMessage());
      }
    }
    assertEquals(
        List.of("get", "list", "get", "list", "delete", "delete"),
        cluster.serviceAccountRequests().stream().map(r -> r.attributes().verb()).toList(),
        "what the syncer's identity asked, in order");
  }

  @Test
  void anApplyIsOnePatchOfItsSecretWithNoReadFirst() {
    fixtures.namespace("team-a", Map.of());
    try (KubernetesClient asSyncer = new KubernetesClientBuilder().build()) {
      ApplyingSecretWriter writer = new ApplyingSecretWriter(asSyncer, new SyncerMetrics());

      Answer outcome = writer.apply(injectedSecret("team-a"));

      assertEquals(Answer.APPLIED, outcome);
    }
    assertEquals(
        List.of("patch /api/v1/namespaces/team-a/secrets/" + INJECTED),
        cluster.serviceAccountRequests().stream()
            .map(r -> r.attributes().verb() + " " + r.attributes().path())
            .toList(),
        "what one apply asked of the API server");
  }

  @Test
  void aDeletedResourcesSecretsAreLeftToTheGarbageCollectorNotDeletedByTheSyncer() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.namespace("team-b", Map.of());
    fixtures.sourceSecret("alice");
    fixtures.imageAlternative("Always", "{}");
    syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
            "--leader-elect=false",
            "--debounce=50ms",
            "--log-format=text");
    eventually(
        "team-b's Secret",
        () -> Map.of(REPOSITORY, "alice").equals(fixtures.injectedUsers("team-b")));

    client.resources(ImageAlternative.class).withName("acme").delete();
    eventually(
        "the syncer handled the deletion: no pair left",
        () -> Metrics.value(syncer.get("/metrics").body(), "kuik_syncer_pairs") == 0);

    assertEquals(
        List.of(),
        cluster.serviceAccountRequests().stream()
            .filter(r -> r.attributes().verb().startsWith("delete"))
            .toList(),
        "the syncer's DELETEs (a deleted resource's Secrets go with it by their owner reference)");
    assertNoRequestRefused();
  }

  /** Waits for the condition; a syncer that exits meanwhile fails the test at once, saying why. */
  private void eventually(String what, Callable<Boolean> condition) {
    await(what)
        .atMost(PATIENCE)
        .until(
            () -> {
              if (!syncer.isRunning()) {
                throw new AssertionError(
                    "the syncer exited while waiting for " + what + "; refused: " + refused());
              }
              return condition.call();
            });
  }

  private List<RbacDispatcher.Observed> refused() {
    return cluster.serviceAccountRequests().stream().filter(r -> r.code() == 403).toList();
  }

  private void assertNoRequestRefused() {
    assertEquals(List.of(), refused(), "requests of the syncer that the chart's RBAC refuses");
  }

  private static Secret injectedSecret(String namespace) {
    return new SecretBuilder()
        .withNewMetadata()
        .withName(INJECTED)
        .withNamespace(namespace)
        .endMetadata()
        .withType("kubernetes.io/dockerconfigjson")
        .withData(Map.of(".dockerconfigjson", "e30="))
        .build();
  }
}
