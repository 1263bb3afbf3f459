package io.kuik.sim.faults;

import static io.kuik.sim.ManifestBuilders.auths;
import static io.kuik.sim.ManifestBuilders.injectedSecret;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.Cluster;
import io.kuik.sim.chart.Release;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.object.Meta;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * A policy that cannot be evaluated refuses no other Secret write, Helm's included
 * (docs/behaviour.md#what-the-syncer-may-write).
 */
class PolicyFailureTest {

  private static final String POLICY =
      PolicyFailure.policyOf(io.kuik.sim.chart.ChartFiles.locate(), Release.DEFAULT);
  private static final Identity SYNCER =
      io.kuik.sim.hosts.SyncerHost.podIdentity("kuik-system", "kuik-secret-syncer");

  private final Cluster cluster = Cluster.create(29);

  @BeforeEach
  void world() {
    cluster.install(Release.DEFAULT);
    cluster.people().createNamespace("shop");
  }

  private ObjectNode syncerWrite() {
    return cluster
        .api()
        .apply(
            SYNCER,
            injectedSecret("shop", "kuik-inject-imagemirror-prod", auths("quay.io", "m", "p")),
            "kuik-secret-syncer",
            true);
  }

  @Test
  void helmReleaseSecretsPassWhileThePolicyFailsAndAPersonsReservedWriteIsRefused() {
    cluster.policyFailure().fail(POLICY);

    cluster.helm().install("shop", "cart");
    ObjectNode v2 = cluster.helm().upgrade("shop", "cart");
    ApiException refused =
        assertThrows(
            ApiException.class,
            () ->
                cluster
                    .people()
                    .create(injectedSecret("shop", "kuik-inject-x", auths("quay.io", "a", "b"))));

    assertEquals("deployed", Meta.labels(v2).get("status"));
    assertTrue(
        refused
            .getMessage()
            .startsWith(
                "secrets \"kuik-inject-x\" is forbidden: ValidatingAdmissionPolicy"
                    + " 'kuik-pull-secrets' with binding 'kuik-pull-secrets' denied request:"
                    + " expression '"),
        refused.getMessage());
    assertThrows(ApiException.class, this::syncerWrite, "the syncer's writes match too");
  }

  @Test
  void aTimedFailureHealsByItselfAndTheSyncerWritesAgain() {
    cluster.policyFailure().failFor(POLICY, Duration.ofMinutes(2));
    assertThrows(ApiException.class, this::syncerWrite);

    cluster.loop().runFor(Duration.ofMinutes(2));

    assertFalse(cluster.policyFailure().failing(POLICY));
    assertEquals("kuik-inject-imagemirror-prod", Meta.name(syncerWrite()));
  }

  @Test
  void aHealBeforeTheEndIsNotUndoneAndAnotherFailureIsNotEndedEarly() {
    cluster.policyFailure().failFor(POLICY, Duration.ofMinutes(2));
    cluster.policyFailure().heal(POLICY);
    cluster.loop().runFor(Duration.ofMinutes(1));
    cluster.policyFailure().fail(POLICY);

    cluster.loop().runFor(Duration.ofMinutes(5));

    assertTrue(cluster.policyFailure().failing(POLICY), "the first window's end is stale");
  }
}
