package io.kuik.sim.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.sim.Cluster;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Meta;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class HelmTest {

  @Test
  void anUpgradeWritesTheNextRevisionAndSupersedesThePreviousOne() {
    Cluster cluster = Cluster.create(19);
    cluster.people().createNamespace("shop");

    cluster.helm().install("shop", "cart");
    ObjectNode v2 = cluster.helm().upgrade("shop", "cart");

    assertEquals("sh.helm.release.v1.cart.v2", Meta.name(v2));
    assertEquals(Helm.TYPE, v2.path("type").asString());
    assertEquals(
        Map.of("name", "cart", "owner", "helm", "status", "deployed", "version", "2"),
        Meta.labels(v2));
    ObjectNode v1 =
        cluster.api().get(Cluster.ADMIN, ResourceType.SECRET, "shop", "sh.helm.release.v1.cart.v1");
    assertEquals("superseded", Meta.labels(v1).get("status"));
    assertEquals(2, cluster.helm().lastRevision("shop", "cart"));
  }
}
