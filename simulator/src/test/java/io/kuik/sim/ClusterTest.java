package io.kuik.sim;

import static io.kuik.sim.ManifestBuilders.auths;
import static io.kuik.sim.ManifestBuilders.injectedSecret;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.chart.ChartFiles;
import io.kuik.sim.chart.Release;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Meta;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class ClusterTest {

  @Test
  void installStoresTheReleaseNamespaceItsServiceAccountsAndTheChartsRbacAndPolicy() {
    Cluster cluster = Cluster.create(31);
    Release release = new Release("kuik", "kuik-system");
    ChartFiles chart = ChartFiles.locate();
    int fromChart =
        chart.load(ChartFiles.SYNCER_RBAC, release).size()
            + chart.load(ChartFiles.WEBHOOK_RBAC, release).size()
            + chart.load(ChartFiles.ADMISSION_POLICY, release).size()
            + chart.load(ChartFiles.SELFTEST_POLICY, release).size();

    List<ObjectNode> stored = cluster.install(release);

    int crds = chart.crds().size();
    assertEquals(crds + 3 + fromChart, stored.size());
    assertEquals(
        List.of("imagealternatives.kuik.enix.io", "imagemirrors.kuik.enix.io"),
        stored.subList(0, crds).stream().map(Meta::name).toList());
    assertEquals("Namespace", stored.get(crds).path("kind").asString());
    assertEquals(
        List.of("kuik-secret-syncer", "kuik-webhook"),
        stored.subList(crds + 1, crds + 3).stream().map(Meta::name).toList());
    assertTrue(stored.stream().allMatch(o -> Meta.uid(o) != null), "each one as stored");
    cluster.people().createNamespace("team-a");
    ApiException refused =
        assertThrows(
            ApiException.class,
            () ->
                cluster
                    .people()
                    .create(injectedSecret("team-a", "kuik-inject-x", auths("quay.io", "a", "b"))));
    assertTrue(refused.getMessage().contains("kuik-pull-secrets"), refused.getMessage());
  }

  @Test
  void rbacIsInForceForEveryoneButTheAdministrators() {
    Cluster cluster = Cluster.create(31);
    cluster.install(Release.DEFAULT);

    ApiException forbidden =
        assertThrows(
            ApiException.class,
            () ->
                cluster
                    .api()
                    .list(
                        io.kuik.sim.world.api.Identity.serviceAccount(
                            "kuik-system", "kuik-secret-syncer"),
                        ResourceType.SECRET,
                        "default"));

    assertEquals(403, forbidden.code());
    assertTrue(
        cluster.api().find(Cluster.ADMIN, ResourceType.NAMESPACE, null, "kube-system").isPresent());
  }

  private static String story(long seed) {
    Cluster cluster = Cluster.create(seed);
    cluster.install(Release.DEFAULT);
    cluster.registries().push("nginx:1.27");
    cluster.registries().push("quay.io/acme/app:1");
    cluster.registries().registry("quay.io").requireCredential("acme", "a", "b");
    cluster.people().createNamespace("team-a");
    cluster.deployments().create("team-a", "web", "nginx:1.27", 2);
    cluster.deployments().create("team-a", "api", "quay.io/acme/app:1", 1);
    cluster.loop().runFor(Duration.ofMinutes(1));
    cluster.helm().install("team-a", "shop");
    cluster.velero().restore(cluster.velero().backup("b"));
    cluster.loop().runFor(Duration.ofMinutes(5));
    return cluster.trace().hash();
  }

  @Test
  void theSameSeedAndStoryGiveTheSameTraceByteForByte() {
    assertEquals(story(37), story(37));
  }
}
