package io.kuik.kube.syncer;

import static io.kuik.kube.ClusterFixtures.INSTALL_NAMESPACE;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kuik.kube.ClusterFixtures;
import io.kuik.kube.MalformedRoutingResources;
import io.kuik.kube.MockCluster;
import io.kuik.kube.RbacDispatcher;
import io.kuik.kube.RoutingInformers;
import io.kuik.model.RoutingKind;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The real {@code kuik syncer} writes the status of the routing resources on a mock API server that
 * serves the chart's CRDs (status subresource included) behind the chart's RBAC: a server-side
 * apply on {@code imagealternatives/status} as its own field manager, the only write it makes to a
 * routing resource; a malformed resource gets {@code Valid} False with the field in the message.
 */
class RoutingStatusOnMockApiServerTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);

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

  private GenericKubernetesResource stored(RoutingKind kind, String name) {
    return client.genericKubernetesResources(RoutingInformers.context(kind)).withName(name).get();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> status(GenericKubernetesResource resource) {
    Object status = resource == null ? null : resource.getAdditionalProperties().get("status");
    return status instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> valid(GenericKubernetesResource resource) {
    Object conditions = status(resource).get("conditions");
    if (conditions instanceof List<?> list) {
      for (Object c : list) {
        if (c instanceof Map<?, ?> map && "Valid".equals(map.get("type"))) {
          return (Map<String, Object>) map;
        }
      }
    }
    return Map.of();
  }

  /** The account's requests to the routing kinds, printed when a wait fails. */
  private record RoutingRequests(MockCluster cluster) {
    @Override
    public String toString() {
      return cluster.serviceAccountRequests().stream()
          .filter(r -> r.attributes().group().equals("kuik.enix.io"))
          .toList()
          .toString();
    }
  }

  @Test
  void theSyncerAppliesTheStatusSubresourceOnlyAndCountsTheNamespacesHoldingItsSecret() {
    fixtures.namespace(INSTALL_NAMESPACE, Map.of());
    fixtures.namespace("team-a", Map.of("tier", "prod"));
    fixtures.namespace("team-b", Map.of("tier", "dev"));
    fixtures.sourceSecret("alice");
    fixtures.imageAlternative("Always", "{matchLabels: {tier: prod}}");
    MalformedRoutingResources.create(client, "bad-");
    syncer =
        new RunningSyncer(
            "--cluster-resource-namespace=" + INSTALL_NAMESPACE,
            "--leader-elect=false",
            "--debounce=50ms",
            "--log-format=text");

    GenericKubernetesResource acme;
    try {
      acme =
          await("acme's status")
              .atMost(PATIENCE)
              .until(
                  () -> stored(RoutingKind.IMAGE_ALTERNATIVE, "acme"),
                  r -> Integer.valueOf(1).equals(status(r).get("secretNamespaces")));
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError("the syncer's requests: " + new RoutingRequests(cluster), e);
    }
    assertEquals("True", valid(acme).get("status"));
    assertEquals("Valid", valid(acme).get("reason"));
    List<String> statusApplies =
        cluster.applies().stream().filter(p -> p.contains("/status?")).toList();
    assertTrue(
        statusApplies.stream()
            .allMatch(
                p ->
                    p.contains("fieldManager=kuik-secret-syncer-status")
                        && p.contains("force=true")),
        "written as its own field manager, forced: " + statusApplies);
    for (var shape : MalformedRoutingResources.SHAPES.entrySet()) {
      RoutingKind kind =
          shape.getValue()[0].equals("ImageMirror")
              ? RoutingKind.IMAGE_MIRROR
              : RoutingKind.IMAGE_ALTERNATIVE;
      GenericKubernetesResource bad =
          await("bad-" + shape.getKey() + "'s status")
              .atMost(PATIENCE)
              .until(() -> stored(kind, "bad-" + shape.getKey()), r -> !valid(r).isEmpty());
      assertEquals("False", valid(bad).get("status"));
      assertEquals("InvalidRoutingResource", valid(bad).get("reason"));
      String message = String.valueOf(valid(bad).get("message"));
      assertTrue(message.contains(shape.getValue()[2] + ":"), message);
      assertTrue(message.length() <= 1024, "message of " + message.length() + " characters");
    }

    Set<String> routingRequests = new TreeSet<>();
    for (RbacDispatcher.Observed r : cluster.serviceAccountRequests()) {
      if (r.attributes().group().equals("kuik.enix.io")) {
        String sub = r.attributes().subresource();
        routingRequests.add(
            r.attributes().verb()
                + " "
                + r.attributes().resource()
                + (sub.isEmpty() ? "" : "/" + sub));
        assertTrue(r.code() < 400, "refused: " + r);
      }
    }
    assertEquals(
        Set.of(
            "list imagealternatives",
            "list imagemirrors",
            "watch imagealternatives",
            "watch imagemirrors",
            "patch imagealternatives/status",
            "patch imagemirrors/status"),
        routingRequests);
  }
}
