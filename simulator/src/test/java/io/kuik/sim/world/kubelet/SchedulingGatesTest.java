package io.kuik.sim.world.kubelet;

import static io.kuik.sim.ManifestBuilders.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.Cluster;
import io.kuik.sim.ManifestBuilders;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * Kubernetes' rules for scheduling gates as the simulator models them
 * (https://kubernetes.io/docs/concepts/scheduling-eviction/pod-scheduling-readiness/): set only at
 * creation, only removed afterwards; a gated pod is Pending with PodScheduled=False, reason
 * SchedulingGated; the kubelet never sees it, and pulls once its last gate is gone.
 */
class SchedulingGatesTest {

  private static final String IMAGE = "quay.io/public/app:1";

  private final Cluster cluster = Cluster.create(7);

  @BeforeEach
  void world() {
    cluster.registries().push(IMAGE);
    cluster.api().create(Cluster.ADMIN, ManifestBuilders.namespace("team-a"));
    cluster.loop().runFor(Duration.ofSeconds(1));
  }

  private ObjectNode gated(String... gates) {
    ObjectNode pod = pod("team-a", "web", IMAGE);
    var list = ((ObjectNode) pod.get("spec")).putArray("schedulingGates");
    for (String gate : gates) {
      list.addObject().put("name", gate);
    }
    return cluster.api().create(Cluster.ADMIN, pod);
  }

  private ObjectNode stored() {
    return cluster.api().get(Cluster.ADMIN, ResourceType.POD, "team-a", "web");
  }

  private ObjectNode patch(String json) {
    return cluster
        .api()
        .jsonPatch(
            Cluster.ADMIN, ResourceType.POD, "team-a", "web", Json.MAPPER.readTree(json), "t");
  }

  @Test
  void aGatedPodIsPendingSchedulingGatedAndTheKubeletNeverPullsForIt() {
    ObjectNode created = gated("example.com/a", "example.com/b");

    var condition = created.path("status").path("conditions").get(0);
    assertEquals("PodScheduled", condition.path("type").asString());
    assertEquals("False", condition.path("status").asString());
    assertEquals("SchedulingGated", condition.path("reason").asString());
    cluster.loop().runFor(Duration.ofMinutes(1));
    assertEquals(List.of(), cluster.kubelet().pullAttempts("team-a", "web"));
    assertEquals("Pending", stored().path("status").path("phase").asString());
    assertNull(cluster.kubelet().phase("team-a", "web"), "the kubelet does not know it");

    patch("[{\"op\":\"remove\",\"path\":\"/spec/schedulingGates/1\"}]");
    cluster.loop().runFor(Duration.ofSeconds(30));
    assertEquals(List.of(), cluster.kubelet().pullAttempts("team-a", "web"), "one gate is left");

    patch("[{\"op\":\"remove\",\"path\":\"/spec/schedulingGates/0\"}]");
    cluster.loop().runFor(Duration.ofSeconds(2));
    assertEquals(1, cluster.kubelet().pullAttempts("team-a", "web").size());
    assertEquals("Running", stored().path("status").path("phase").asString());
  }

  @Test
  void aPodWithoutGatesHasNoSchedulingGatedCondition() {
    ObjectNode created = cluster.api().create(Cluster.ADMIN, pod("team-a", "web", IMAGE));

    assertTrue(created.path("status").path("conditions").isMissingNode());
  }

  @Test
  void onlyDeletionIsAllowedAfterCreation() {
    gated("example.com/a");

    ApiException added =
        assertThrows(
            ApiException.class,
            () ->
                patch(
                    "[{\"op\":\"add\",\"path\":\"/spec/schedulingGates/-\","
                        + "\"value\":{\"name\":\"example.com/b\"}}]"));
    assertEquals(422, added.code());
    assertTrue(
        added.getMessage().contains("only deletion is allowed, but found new scheduling gate"),
        added.getMessage());

    cluster.api().create(Cluster.ADMIN, pod("team-a", "other", IMAGE));
    ApiException toAnUngatedPod =
        assertThrows(
            ApiException.class,
            () ->
                cluster
                    .api()
                    .jsonPatch(
                        Cluster.ADMIN,
                        ResourceType.POD,
                        "team-a",
                        "other",
                        Json.MAPPER.readTree(
                            "[{\"op\":\"add\",\"path\":\"/spec/schedulingGates\","
                                + "\"value\":[{\"name\":\"example.com/b\"}]}]"),
                        "t"));
    assertEquals(422, toAnUngatedPod.code());
  }

  @Test
  void aGateNamedTwiceIsRefusedAtCreation() {
    ApiException twice =
        assertThrows(ApiException.class, () -> gated("example.com/a", "example.com/a"));
    assertEquals(422, twice.code());
  }

  @Test
  void aJsonPatchWhoseTestFailsChangesNothing() {
    gated("example.com/a", "kuik.enix.io/pull-secret");

    ApiException moved =
        assertThrows(
            ApiException.class,
            () ->
                patch(
                    "[{\"op\":\"test\",\"path\":\"/spec/schedulingGates/0/name\","
                        + "\"value\":\"kuik.enix.io/pull-secret\"},"
                        + "{\"op\":\"remove\",\"path\":\"/spec/schedulingGates/0\"}]"));
    assertEquals(422, moved.code());
    assertEquals(2, stored().path("spec").path("schedulingGates").size());
  }

  @Test
  void aPodCreatedWithANodeAndAGateIsRefusedAsValidatePodCreateRefusesIt() {
    ObjectNode pod = pod("team-a", "web", IMAGE);
    ((ObjectNode) pod.get("spec")).put("nodeName", "node-1");
    ((ObjectNode) pod.get("spec")).putArray("schedulingGates").addObject().put("name", "a/b");

    ApiException refused =
        assertThrows(ApiException.class, () -> cluster.api().create(Cluster.ADMIN, pod));

    assertEquals(422, refused.code());
    assertTrue(
        refused
            .getMessage()
            .contains(
                "spec.nodeName: Forbidden: cannot be set until all schedulingGates have been"),
        refused.getMessage());
    ((ObjectNode) pod.get("spec")).remove("schedulingGates");
    assertEquals(
        "node-1",
        cluster.api().create(Cluster.ADMIN, pod).path("spec").path("nodeName").asString());
  }
}
