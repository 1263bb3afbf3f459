package io.kuik.kube;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.SecretList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The mock server's server-side apply behaves as the syncer relies on the API server's to. */
class ServerSideApplyDispatcherTest {

  private final MockCluster cluster = new MockCluster();
  private final KubernetesClient client = cluster.client();

  @AfterEach
  void close() {
    cluster.close();
  }

  @Test
  void applyCreatesAMissingSecret() {
    apply(secret("c2VjcmV0"));

    Secret stored = client.secrets().inNamespace("team-a").withName("pull").get();
    assertEquals("c2VjcmV0", stored.getData().get(".dockerconfigjson"));
  }

  @Test
  void identicalApplyChangesNothing() {
    apply(secret("c2VjcmV0"));
    String before = resourceVersion();

    apply(secret("c2VjcmV0"));

    assertEquals(before, resourceVersion());
  }

  @Test
  void changedApplyMergesIntoTheExistingSecret() {
    apply(secret("c2VjcmV0"));
    client
        .secrets()
        .inNamespace("team-a")
        .withName("pull")
        .edit(
            s ->
                new SecretBuilder(s)
                    .editMetadata()
                    .addToLabels("owner", "someone")
                    .endMetadata()
                    .build());
    String before = resourceVersion();

    apply(secret("b3RoZXI="));

    Secret stored = client.secrets().inNamespace("team-a").withName("pull").get();
    assertEquals("b3RoZXI=", stored.getData().get(".dockerconfigjson"));
    assertEquals("someone", stored.getMetadata().getLabels().get("owner"));
    assertNotEquals(before, resourceVersion());
  }

  @Test
  void otherPatchesStillWork() {
    apply(secret("c2VjcmV0"));

    client
        .secrets()
        .inNamespace("team-a")
        .withName("pull")
        .edit(s -> new SecretBuilder(s).withType("Opaque").build());

    assertEquals("Opaque", client.secrets().inNamespace("team-a").withName("pull").get().getType());
    assertNull(client.secrets().inNamespace("team-b").withName("pull").get());
  }

  @Test
  void aListWithALimitComesInPagesThatTogetherHoldEveryMatchingObjectOnce() {
    for (int i = 0; i < 7; i++) {
      client
          .resource(
              new SecretBuilder()
                  .withNewMetadata()
                  .withName("s" + i)
                  .withNamespace("team-a")
                  .withLabels(Map.of("picked", i % 2 == 0 ? "yes" : "no"))
                  .endMetadata()
                  .build())
          .create();
    }
    Set<String> seen = new TreeSet<>();
    int pages = 0;
    String token = null;
    do {
      SecretList page =
          client
              .secrets()
              .inNamespace("team-a")
              .withLabel("picked", "yes")
              .list(new ListOptionsBuilder().withLimit(3L).withContinue(token).build());
      pages++;
      assertTrue(page.getItems().size() <= 3, "at most the limit");
      page.getItems().forEach(s -> assertTrue(seen.add(s.getMetadata().getName()), "once"));
      token = page.getMetadata().getContinue();
    } while (token != null && !token.isEmpty());

    assertEquals(Set.of("s0", "s2", "s4", "s6"), seen);
    assertEquals(2, pages);
  }

  @Test
  void anInformerWithALimitListsInPagesAndStillSeesLaterObjects() {
    for (int i = 0; i < 5; i++) {
      client.resource(secretNamed("s" + i)).create();
    }
    SharedIndexInformer<Secret> informer =
        client.secrets().inNamespace("team-a").withLimit(2L).inform();
    try {
      client.resource(secretNamed("late")).create();
      await().atMost(Duration.ofSeconds(10)).until(() -> informer.getStore().list().size() == 6);
    } finally {
      informer.close();
    }
  }

  @Test
  void aContinueTokenThatWasNeverIssuedIsGone() {
    KubernetesClientException gone =
        assertThrows(
            KubernetesClientException.class,
            () ->
                client
                    .secrets()
                    .inNamespace("team-a")
                    .list(new ListOptionsBuilder().withLimit(3L).withContinue("1:nope").build()));
    assertEquals(410, gone.getCode());
  }

  private static Secret secretNamed(String name) {
    return new SecretBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("team-a")
        .endMetadata()
        .build();
  }

  private void apply(Secret secret) {
    client
        .secrets()
        .inNamespace("team-a")
        .resource(secret)
        .fieldManager("kuik-secret-syncer")
        .forceConflicts()
        .serverSideApply();
  }

  private String resourceVersion() {
    return client
        .secrets()
        .inNamespace("team-a")
        .withName("pull")
        .get()
        .getMetadata()
        .getResourceVersion();
  }

  private static Secret secret(String data) {
    return new SecretBuilder()
        .withNewMetadata()
        .withName("pull")
        .withNamespace("team-a")
        .withLabels(Map.of("app.kubernetes.io/managed-by", "kuik-secret-syncer"))
        .endMetadata()
        .withType("kubernetes.io/dockerconfigjson")
        .withData(Map.of(".dockerconfigjson", data))
        .build();
  }
}
