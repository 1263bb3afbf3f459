package io.kuik.sim.world.kubelet;

import static io.kuik.sim.ManifestBuilders.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kuik.sim.Cluster;
import io.kuik.sim.ManifestBuilders;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * Pod phases after a container's process exits, by the pod's restart policy, as the kubelet's
 * {@code getPhase} (pkg/kubelet/kubelet_pods.go) computes them and its status manager writes them.
 */
class PodPhaseTest {

  private static final String IMAGE = "quay.io/public/job:1";

  private final Cluster cluster = Cluster.create(5);
  private final Kubelet kubelet = cluster.kubelet();

  @BeforeEach
  void world() {
    cluster.registries().push(IMAGE);
    cluster.api().create(Cluster.ADMIN, ManifestBuilders.namespace("team-a"));
    cluster.loop().runFor(Duration.ofSeconds(1));
  }

  private void runningPod(String restartPolicy, String... containers) {
    ObjectNode pod = pod("team-a", "job", IMAGE);
    ObjectNode spec = (ObjectNode) pod.get("spec");
    if (!restartPolicy.equals("unset")) {
      spec.put("restartPolicy", restartPolicy);
    }
    for (String extra : containers) {
      spec.withArray("containers").addObject().put("name", extra).put("image", IMAGE);
    }
    cluster.api().create(Cluster.ADMIN, pod);
    cluster.loop().runFor(Duration.ofSeconds(2));
    assertEquals("Running", stored().path("status").path("phase").asString());
  }

  private ObjectNode stored() {
    return cluster.api().get(Cluster.ADMIN, ResourceType.POD, "team-a", "job");
  }

  private ObjectNode containerStatus(int index) {
    return (ObjectNode) stored().path("status").path("containerStatuses").path(index);
  }

  @ParameterizedTest(name = "if restartPolicy {0} and the container exits {1}, expect {2}")
  @CsvSource({
    "unset, 0, Running, 1",
    "Always, 0, Running, 1",
    "Always, 1, Running, 1",
    "OnFailure, 0, Succeeded, 0",
    "OnFailure, 1, Running, 1",
    "Never, 0, Succeeded, 0",
    "Never, 1, Failed, 0",
  })
  void aContainerThatExitsIsRestartedOrLeftTerminatedAsTheRestartPolicySays(
      String restartPolicy, int exitCode, String phase, int restarts) {
    runningPod(restartPolicy);

    kubelet.containerExits("team-a", "job", "app", exitCode);

    assertEquals(phase, stored().path("status").path("phase").asString());
    assertEquals(phase, kubelet.phase("team-a", "job"));
    ObjectNode status = containerStatus(0);
    assertEquals(restarts, status.path("restartCount").asInt());
    String state = restarts > 0 ? "lastState" : "state";
    assertEquals(exitCode, status.path(state).path("terminated").path("exitCode").asInt());
    assertEquals(
        exitCode == 0 ? "Completed" : "Error", Json.text(status, state, "terminated", "reason"));
    if (restarts > 0) {
      assertEquals(true, status.path("state").has("running"), status.toString());
    }
  }

  @Test
  void aPodEndsOnlyOnceEveryContainerHasTerminatedAndFailsIfAnyFailed() {
    runningPod("Never", "sidecar");

    kubelet.containerExits("team-a", "job", "app", 0);
    assertEquals("Running", stored().path("status").path("phase").asString());
    kubelet.containerExits("team-a", "job", "sidecar", 2);

    assertEquals("Failed", stored().path("status").path("phase").asString());
    assertEquals(
        "PodFailed", stored().path("status").path("conditions").path(1).path("reason").asString());
  }

  @Test
  void aFinishedPodStaysFinishedAndItsContainersCannotExitAgain() {
    runningPod("OnFailure");
    kubelet.containerExits("team-a", "job", "app", 0);

    cluster.loop().runFor(Duration.ofMinutes(10));

    assertEquals("Succeeded", stored().path("status").path("phase").asString());
    assertThrows(
        IllegalStateException.class, () -> kubelet.containerExits("team-a", "job", "app", 0));
  }

  @Test
  void aContainerThatNeverStartedCannotExit() {
    cluster.registries().registry("quay.io").down();
    cluster.api().create(Cluster.ADMIN, pod("team-a", "job", IMAGE));
    cluster.loop().runFor(Duration.ofSeconds(2));

    assertThrows(
        IllegalStateException.class, () -> kubelet.containerExits("team-a", "job", "app", 0));
    assertEquals("Pending", kubelet.phase("team-a", "job"));
  }
}
