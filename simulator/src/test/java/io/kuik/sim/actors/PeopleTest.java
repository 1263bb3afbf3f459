package io.kuik.sim.actors;

import static io.kuik.sim.ManifestBuilders.auths;
import static io.kuik.sim.ManifestBuilders.injectedSecret;
import static io.kuik.sim.ManifestBuilders.opaqueSecret;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.Cluster;
import io.kuik.sim.chart.Release;
import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.trace.TraceRecord;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Meta;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class PeopleTest {

  private final Cluster cluster = Cluster.create(17);
  private final People alice = cluster.people();

  @Test
  void aliceLabelsAndUnlabelsANamespaceWithPatches() {
    alice.createNamespace("team-a", "tier=prod");

    alice.labelNamespace("team-a", "kuik.enix.io/pull-secrets-override", "false");
    alice.unlabelNamespace("team-a", "tier");

    ObjectNode namespace = alice.get(ResourceType.NAMESPACE, null, "team-a");
    assertEquals(
        Map.of(
            "kuik.enix.io/pull-secrets-override", "false",
            "kubernetes.io/metadata.name", "team-a"),
        Meta.labels(namespace));
    assertEquals(
        2,
        cluster.trace().requests().stream()
            .filter(r -> r.kind() == RequestKind.PATCH && r.actor().equals(new Actor("alice")))
            .count());
  }

  @Test
  void anEditSendsOnlyWhatChangedAndNothingWhenNothingDid() {
    alice.createNamespace("team-a");
    alice.create(opaqueSecret("team-a", "app-config", "mode", "prod"));
    ObjectNode before = alice.get(ResourceType.SECRET, "team-a", "app-config");

    ObjectNode same = alice.editSecret("team-a", "app-config", s -> {});
    ObjectNode edited =
        alice.editSecret(
            "team-a", "app-config", s -> ((ObjectNode) s.get("data")).put("extra", "eA=="));

    assertEquals(Meta.resourceVersion(before), Meta.resourceVersion(same));
    assertEquals("cHJvZA==", edited.path("data").path("mode").asString());
    assertEquals("eA==", edited.path("data").path("extra").asString());
    long patches =
        cluster.trace().requests().stream().filter(r -> r.kind() == RequestKind.PATCH).count();
    assertEquals(1, patches);
  }

  @Test
  void alicesWritesOfAReservedSecretAreRefusedButSheMayDeleteIt() {
    cluster.install(Release.DEFAULT);
    alice.createNamespace("team-a");
    cluster
        .api()
        .apply(
            io.kuik.sim.hosts.SyncerHost.podIdentity("kuik-system", "kuik-secret-syncer"),
            injectedSecret("team-a", "kuik-inject-imagemirror-prod", auths("quay.io", "m", "p")),
            "kuik-secret-syncer",
            true);

    ApiException edit =
        assertThrows(
            ApiException.class,
            () ->
                alice.editSecret(
                    "team-a",
                    "kuik-inject-imagemirror-prod",
                    s -> ((ObjectNode) s.get("data")).put(".dockerconfigjson", "e30=")));
    ApiException create =
        assertThrows(
            ApiException.class,
            () -> alice.create(injectedSecret("team-a", "kuik-inject-x", auths("q.io", "a", "b"))));
    alice.deleteSecret("team-a", "kuik-inject-imagemirror-prod");

    assertTrue(
        edit.getMessage().contains("alice may not change the type, data, labels or immutability"),
        edit.getMessage());
    assertTrue(create.getMessage().contains("alice may not create team-a/kuik-inject-x"));
    assertTrue(
        cluster
            .api()
            .find(Cluster.ADMIN, ResourceType.SECRET, "team-a", "kuik-inject-imagemirror-prod")
            .isEmpty());
    assertTrue(
        cluster.trace().requests().stream()
            .filter(r -> r.actor().equals(new Actor("alice")) && r.kind() == RequestKind.DELETE)
            .allMatch(TraceRecord.Request::succeeded));
  }
}
