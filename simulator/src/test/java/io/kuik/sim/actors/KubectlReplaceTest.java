package io.kuik.sim.actors;

import static io.kuik.sim.ManifestBuilders.auths;
import static io.kuik.sim.ManifestBuilders.injectedSecret;
import static io.kuik.sim.ManifestBuilders.opaqueSecret;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.Cluster;
import io.kuik.sim.actors.KubectlReplace.Outcome;
import io.kuik.sim.chart.Release;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Meta;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The encryption-at-rest rotation by {@code kubectl replace} passes the policy
 * (docs/behaviour.md#what-the-syncer-may-write).
 */
class KubectlReplaceTest {

  private static final Identity SYNCER =
      io.kuik.sim.hosts.SyncerHost.podIdentity("kuik-system", "kuik-secret-syncer");

  @Test
  void aReplaceOfEverySecretPassesOnReservedNamesAndChangesNothingMeaningful() {
    Cluster cluster = Cluster.create(13);
    cluster.install(Release.DEFAULT);
    cluster.people().createNamespace("team-a");
    cluster
        .api()
        .apply(
            SYNCER,
            injectedSecret("team-a", "kuik-inject-imagemirror-prod", auths("quay.io", "m", "p")),
            "kuik-secret-syncer",
            true);
    cluster.people().create(opaqueSecret("team-a", "app-config", "mode", "prod"));
    ObjectNode before =
        cluster
            .api()
            .get(Cluster.ADMIN, ResourceType.SECRET, "team-a", "kuik-inject-imagemirror-prod");

    cluster.api().rotateEncryptionKey();
    List<Outcome> outcomes = cluster.kubectl().replaceAllSecrets();

    assertEquals(2, outcomes.size(), outcomes.toString());
    assertTrue(outcomes.stream().allMatch(Outcome::replaced), outcomes.toString());
    ObjectNode after =
        cluster
            .api()
            .get(Cluster.ADMIN, ResourceType.SECRET, "team-a", "kuik-inject-imagemirror-prod");
    assertNotEquals(Meta.resourceVersion(before), Meta.resourceVersion(after), "rewritten");
    for (String field : List.of("type", "data", "immutable")) {
      assertEquals(before.get(field), after.get(field), field);
    }
    assertEquals(Meta.labels(before), Meta.labels(after));
    assertEquals(Meta.ownerReferences(before), Meta.ownerReferences(after));
  }
}
