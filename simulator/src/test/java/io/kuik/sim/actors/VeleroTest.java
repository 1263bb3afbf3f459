package io.kuik.sim.actors;

import static io.kuik.sim.ManifestBuilders.auths;
import static io.kuik.sim.ManifestBuilders.injectedSecret;
import static io.kuik.sim.ManifestBuilders.opaqueSecret;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.Cluster;
import io.kuik.sim.actors.Velero.Backup;
import io.kuik.sim.actors.Velero.Phase;
import io.kuik.sim.actors.Velero.RestoreResult;
import io.kuik.sim.chart.Release;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Meta;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * Velero and the chart's policy: a restore of the reserved Secrets is refused
 * (docs/behaviour.md#what-the-syncer-may-write).
 */
class VeleroTest {

  private static final Identity SYNCER =
      io.kuik.sim.hosts.SyncerHost.podIdentity("kuik-system", "kuik-secret-syncer");
  private static final String RESERVED = "kuik-inject-imagemirror-prod";
  private static final String POLICY_DENIAL =
      "ValidatingAdmissionPolicy 'kuik-pull-secrets' with binding 'kuik-pull-secrets' denied"
          + " request: Secrets named kuik-inject-* and kuik-provider-* are written only by the kuik"
          + " secret-syncer";

  private final Cluster cluster = Cluster.create(9);
  private final Velero velero = cluster.velero();

  @BeforeEach
  void world() {
    cluster.install(Release.DEFAULT);
    for (String namespace : List.of("team-a", "team-b")) {
      cluster.people().createNamespace(namespace);
      cluster
          .api()
          .apply(
              SYNCER,
              injectedSecret(namespace, RESERVED, auths("registry.example.com/mirror", "m", "p")),
              "kuik-secret-syncer",
              true);
    }
    cluster.people().create(opaqueSecret("team-a", "app-config", "mode", "prod"));
  }

  /** Both namespaces deleted, as in a disaster the backup is for. */
  private void loseTheNamespaces() {
    cluster.people().delete(ResourceType.NAMESPACE, null, "team-a");
    cluster.people().delete(ResourceType.NAMESPACE, null, "team-b");
    cluster.loop().runFor(Duration.ofMinutes(1));
    assertTrue(
        cluster.api().find(Cluster.ADMIN, ResourceType.NAMESPACE, null, "team-a").isEmpty(),
        "the namespace controller finished");
  }

  @Test
  void aRestoreOfReservedSecretsWithThePolicyInForceEndsPartiallyFailedWithOneErrorPerSecret() {
    Backup backup = velero.backup("nightly");
    assertTrue(backup.keys().contains("team-a/" + RESERVED), backup.keys().toString());
    loseTheNamespaces();

    RestoreResult result = velero.restore(backup);

    assertEquals(Phase.PARTIALLY_FAILED, result.phase());
    assertEquals(2, result.allErrors().size(), result.allErrors().toString());
    for (String namespace : List.of("team-a", "team-b")) {
      List<String> errors = result.errors().get(namespace);
      assertEquals(1, errors.size(), namespace);
      String prefix = "error restoring secrets/" + namespace + "/" + RESERVED + ": ";
      assertTrue(
          errors
              .get(0)
              .startsWith(prefix + "secrets \"" + RESERVED + "\" is forbidden: " + POLICY_DENIAL),
          errors.get(0));
      assertTrue(
          errors.get(0).contains("system:serviceaccount:velero:velero may not create"),
          errors.get(0));
    }
    assertEquals(List.of("secrets/team-a/app-config"), result.restored());
    assertTrue(
        cluster.api().find(Cluster.ADMIN, ResourceType.SECRET, "team-a", RESERVED).isEmpty());
  }

  @Test
  void aBackupThatExcludesTheSyncersSecretsRestoresCompleted() {
    Backup backup =
        velero.backupExcluding("nightly", "app.kubernetes.io/managed-by", "kuik-secret-syncer");
    assertEquals(List.of("team-a/app-config"), backup.keys());
    loseTheNamespaces();

    RestoreResult result = velero.restore(backup);

    assertEquals(Phase.COMPLETED, result.phase());
    assertTrue(result.allErrors().isEmpty());
    assertTrue(result.allWarnings().isEmpty());
    ObjectNode restored =
        cluster.api().get(Cluster.ADMIN, ResourceType.SECRET, "team-a", "app-config");
    assertEquals("nightly", Meta.labels(restored).get(Velero.BACKUP_NAME_LABEL));
    assertEquals(result.name(), Meta.labels(restored).get(Velero.RESTORE_NAME_LABEL));
    assertEquals("nightly-20260101000100", result.name(), "the backup name and the restore time");
  }

  @Test
  void aRestoreOverSecretsThatStillExistSkipsThemAndWarnsOnlyWhereTheyDiffer() {
    Backup backup = velero.backup("nightly");
    cluster
        .people()
        .editSecret("team-a", "app-config", s -> ((ObjectNode) s.get("data")).put("mode", "ZGV2"));

    RestoreResult result = velero.restore(backup);

    assertEquals(Phase.COMPLETED, result.phase(), result.toString());
    assertEquals(
        List.of(
            "could not restore, Secret \"app-config\" already exists. Warning: the in-cluster"
                + " version is different than the backed-up version."),
        result.allWarnings());
    assertTrue(result.restored().isEmpty());
  }

  @Test
  void restoredObjectsLoseTheirServerFieldsAndOwnerReferences() {
    ObjectNode owned = opaqueSecret("team-b", "owned", "k", "v");
    ObjectNode owner =
        cluster.api().get(Cluster.ADMIN, ResourceType.SECRET, "team-a", "app-config");
    ((ObjectNode) owned.get("metadata"))
        .putArray("ownerReferences")
        .addObject()
        .put("apiVersion", "v1")
        .put("kind", "Secret")
        .put("name", "app-config")
        .put("uid", Meta.uid(owner));
    cluster.people().create(owned);
    Backup backup = velero.backup("nightly");
    cluster.people().deleteSecret("team-b", "owned");

    RestoreResult result = velero.restore(backup);

    assertEquals(List.of("secrets/team-b/owned"), result.restored());
    ObjectNode restored = cluster.api().get(Cluster.ADMIN, ResourceType.SECRET, "team-b", "owned");
    assertTrue(Meta.ownerReferences(restored).isEmpty());
    ObjectNode backedUp =
        backup.items().stream().filter(i -> Meta.name(i).equals("owned")).findFirst().get();
    assertFalse(Meta.uid(restored).equals(Meta.uid(backedUp)));
  }
}
