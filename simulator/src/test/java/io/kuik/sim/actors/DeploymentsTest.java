package io.kuik.sim.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.Cluster;
import io.kuik.sim.actors.Deployments.Deployment;
import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.trace.Resource;
import io.kuik.sim.trace.TraceRecord;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Meta;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class DeploymentsTest {

  private final Cluster cluster = Cluster.create(5);

  @BeforeEach
  void world() {
    cluster.registries().push("nginx:1.27");
    cluster.registries().push("nginx:1.28");
    cluster.people().createNamespace("team-a");
    cluster.loop().runFor(Duration.ofSeconds(1));
  }

  private List<String> podNames(Deployment deployment) {
    return deployment.pods().stream().map(Meta::name).toList();
  }

  private List<String> phases(Deployment deployment) {
    return deployment.pods().stream().map(p -> p.path("status").path("phase").asString()).toList();
  }

  @Test
  void aDeploymentCreatesItsReplicasAsTheReplicaSetControllerAndTheyRun() {
    Deployment web = cluster.deployments().create("team-a", "web", "nginx:1.27", 2);
    cluster.loop().runFor(Duration.ofSeconds(5));

    assertEquals(List.of("web-1-0", "web-1-1"), podNames(web));
    assertEquals(List.of("Running", "Running"), phases(web));
    ObjectNode pod = web.pods().get(0);
    assertEquals(Map.of("app", "web", "pod-template-hash", "1"), Meta.labels(pod));
    List<TraceRecord.Request> creates =
        cluster.trace().requests().stream()
            .filter(r -> r.kind() == RequestKind.CREATE && r.target().isA(Resource.PODS))
            .toList();
    assertEquals(2, creates.size());
    assertTrue(
        creates.stream()
            .allMatch(
                r -> r.actor().equals(new Actor("replicaset-controller")) && r.code() == 201));
  }

  @Test
  void aRolloutCreatesTheNewPodsThenDeletesTheOldOnesAsTheNewOnesRun() {
    Deployment web = cluster.deployments().create("team-a", "web", "nginx:1.27", 2);
    cluster.loop().runFor(Duration.ofSeconds(5));

    web.setImage("app", "nginx:1.28");
    assertEquals(List.of("web-1-0", "web-1-1", "web-2-0", "web-2-1"), podNames(web));

    cluster.loop().runFor(Duration.ofSeconds(5));
    assertEquals(List.of("web-2-0", "web-2-1"), podNames(web));
    assertEquals(List.of("Running", "Running"), phases(web));
    assertEquals(
        "nginx:1.28",
        web.pods().get(0).path("spec").path("containers").path(0).path("image").asString());
  }

  @Test
  void aRolloutWhoseImageCannotBePulledKeepsTheOldPodsRunning() {
    Deployment web = cluster.deployments().create("team-a", "web", "nginx:1.27", 2);
    cluster.loop().runFor(Duration.ofSeconds(5));

    web.setImage("app", "nginx:9.9");
    cluster.loop().runFor(Duration.ofMinutes(3));

    assertEquals(List.of("web-1-0", "web-1-1", "web-2-0", "web-2-1"), podNames(web));
    assertEquals(List.of("Running", "Running", "Pending", "Pending"), phases(web));
  }

  @Test
  void scalingCreatesOrDeletesTheHighestIndexes() {
    Deployment web = cluster.deployments().create("team-a", "web", "nginx:1.27", 2);
    web.scale(3);
    assertEquals(List.of("web-1-0", "web-1-1", "web-1-2"), podNames(web));

    web.scale(1);

    assertEquals(List.of("web-1-0"), podNames(web));
  }

  @Test
  void aPodSomeoneDeletesIsReplaced() {
    Deployment web = cluster.deployments().create("team-a", "web", "nginx:1.27", 2);
    cluster.loop().runFor(Duration.ofSeconds(5));
    String uid = Meta.uid(web.pods().get(0));

    cluster.people().delete(ResourceType.POD, "team-a", "web-1-0");
    cluster.loop().runFor(Duration.ofSeconds(5));

    assertEquals(List.of("web-1-0", "web-1-1"), podNames(web));
    assertTrue(!uid.equals(Meta.uid(web.pods().get(0))), "a new pod under the same name");
    assertEquals(List.of("Running", "Running"), phases(web));
  }

  @Test
  void theControllerRetriesWhatTheApiServerRefusedDuringAnOutage() {
    cluster.outages().apiServerUnavailable(Duration.ofSeconds(12));
    Deployment web = cluster.deployments().create("team-a", "web", "nginx:1.27", 1);

    cluster.loop().runFor(Duration.ofSeconds(20));

    assertEquals(List.of("web-1-0"), podNames(web));
    long refused =
        cluster.trace().requests().stream()
            .filter(r -> r.actor().equals(new Actor("replicaset-controller")) && r.code() == 503)
            .count();
    assertEquals(3, refused, "at +0 s, +5 s and +10 s; served at +15 s");
  }

  @Test
  void deletingTheDeploymentDeletesItsPods() {
    Deployment web = cluster.deployments().create("team-a", "web", "nginx:1.27", 2);

    web.delete();
    cluster.loop().runFor(Duration.ofSeconds(5));

    assertTrue(cluster.api().list(Cluster.ADMIN, ResourceType.POD, "team-a").items().isEmpty());
    assertTrue(cluster.deployments().find("team-a", "web").isEmpty());
  }

  @Test
  void aDeploymentGoesWithItsNamespace() {
    cluster.deployments().create("team-a", "web", "nginx:1.27", 2);
    cluster.loop().runFor(Duration.ofSeconds(5));

    cluster.people().delete(ResourceType.NAMESPACE, null, "team-a");
    cluster.loop().runFor(Duration.ofMinutes(1));

    assertTrue(cluster.deployments().find("team-a", "web").isEmpty());
    assertTrue(cluster.loop().pending().isEmpty(), cluster.loop().pending().toString());
  }
}
