package io.kuik.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
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
