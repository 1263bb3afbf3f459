package io.kuik.kube.syncer;

import static io.kuik.kube.ClusterFixtures.INSTALL_NAMESPACE;
import static io.kuik.kube.ClusterFixtures.REPOSITORY;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kuik.kube.ClusterFixtures;
import io.kuik.kube.MalformedRoutingResources;
import io.kuik.kube.MockCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Routing resources of every wrong shape, stored by an API server that does not enforce kuik's CRD
 * schema, cost the syncer nothing but an Event each: every other resource, created before or after
 * them, is still served, and the syncer stays alive and ready.
 */
class MalformedResourcesOnMockApiServerTest {

  private static final Duration PATIENCE = Duration.ofSeconds(20);

  private final MockCluster cluster = new MockCluster();
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
  void malformedResourcesListedOrWatchedAreInvalidAndTheGoodOneIsServed() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of());
    fixtures.sourceSecret("alice");
    MalformedRoutingResources.create(client, "listed-");
    syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
            "--leader-elect=false",
            "--debounce=50ms",
            "--log-format=text");
    await("ready").atMost(PATIENCE).until(() -> syncer.get("/readyz").statusCode() == 200);

    MalformedRoutingResources.create(client, "watched-");
    fixtures.imageAlternative("Always", "{}");

    await("the good resource's Secret")
        .atMost(PATIENCE)
        .until(() -> Map.of(REPOSITORY, "alice").equals(fixtures.injectedUsers("team-a")));
    for (String prefix : List.of("listed-", "watched-")) {
      MalformedRoutingResources.SHAPES.forEach(
          (name, shape) -> {
            Event event =
                await(prefix + name + "'s InvalidRoutingResource Event")
                    .atMost(PATIENCE)
                    .until(() -> invalidEvent(prefix + name), e -> e != null);
            assertEquals(shape[0], event.getInvolvedObject().getKind());
            assertTrue(
                event.getMessage().contains(shape[2] + ":"),
                "names the field " + shape[2] + ": " + event.getMessage());
          });
    }
    assertEquals(200, syncer.get("/healthz").statusCode());
    assertEquals(200, syncer.get("/readyz").statusCode());
  }

  private Event invalidEvent(String name) {
    return client.v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> "InvalidRoutingResource".equals(e.getReason()))
        .filter(e -> name.equals(e.getInvolvedObject().getName()))
        .findFirst()
        .orElse(null);
  }
}
