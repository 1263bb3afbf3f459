package io.kuik.syncer;

import static io.kuik.syncer.SyncerHarness.alternative;
import static io.kuik.syncer.SyncerHarness.config;
import static io.kuik.syncer.SyncerHarness.pod;
import static io.kuik.syncer.SyncerHarness.repository;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * How far a resync that comes during the start's pass stretches: as far as the pairs that will hold
 * a Secret need, not every pair the pass has still to look at.
 */
class ResyncDuringTheStartTest {

  /** Two writes a second, one of them for the resync, a resync every minute. */
  private static SyncerHarness pacedCluster() {
    return new SyncerHarness(
        SyncerSettings.defaults(SyncerHarness.CLUSTER_RESOURCE_NAMESPACE)
            .withWriteLimit(2, 1)
            .withResyncPeriod(Duration.ofMinutes(1))
            .withResyncShare(0.5));
  }

  @Test
  void aResyncDuringTheStartsPassStretchesOnlyForThePairsThatWillHoldASecret() {
    SyncerHarness cluster = pacedCluster();
    for (int i = 0; i < 400; i++) {
      cluster.applyNamespace(String.format("ns-%03d", i));
    }
    cluster.source("acme-pull", config("quay.io/acme", "acme", "s3cret"));
    cluster.resource(
        alternative(
            "always", RewritePolicy.ALWAYS, null, repository(0, "quay.io/acme/a", "acme-pull")));
    for (int r = 1; r <= 3; r++) {
      // No pod anywhere: these pairs are looked at once and never hold a Secret.
      cluster.resource(
          alternative(
              "on-failure-" + r,
              RewritePolicy.ON_FAILURE,
              null,
              repository(0, "quay.io/acme/o" + r, "acme-pull")));
    }
    cluster.start().advanceSeconds(59.9); // the first resync comes a period after the start
    assertEquals(Duration.ofMinutes(1), cluster.syncer().resyncPeriod());
    assertTrue(cluster.applies().size() < 150, "the start's pass of 400 applies at 2/s runs on");
    cluster.advanceSeconds(0.2);
    Instant tick = SyncerHarness.T0.plus(Duration.ofMinutes(1));

    // 400 Secrets at the resync's 1/s need 400 s: 7 whole minutes. Counting the 1,400 pairs the
    // pass had left (1,200 of which never hold a Secret) would have made it 27.
    assertEquals(Duration.ofMinutes(7), cluster.syncer().resyncPeriod());
    cluster.advance(Duration.ofMinutes(7).plusSeconds(60));
    long again =
        cluster.applies().stream()
            .filter(a -> a.at().isAfter(tick))
            .map(SyncerHarness.Apply::namespace)
            .distinct()
            .count();
    assertEquals(400, again, "every Secret applied again within the stretched period");
  }

  @Test
  void anOnFailureResourcesPairsCountWhereAPodItRewroteLivesAndOnlyThere() {
    SyncerHarness cluster = pacedCluster();
    ResourceId used = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "used");
    cluster.source("acme-pull", config("quay.io/acme", "acme", "s3cret"));
    cluster.resource(
        alternative(
            "used", RewritePolicy.ON_FAILURE, null, repository(0, "quay.io/acme/u", "acme-pull")));
    cluster.resource(
        alternative(
            "unused",
            RewritePolicy.ON_FAILURE,
            null,
            repository(0, "quay.io/acme/n", "acme-pull")));
    for (int i = 0; i < 400; i++) {
      String ns = String.format("ns-%03d", i);
      cluster.applyNamespace(ns);
      cluster.pod(pod(ns, "web", used, "Running", "quay.io/acme/u:1.0"));
    }
    cluster.start().advanceSeconds(60.1);

    // The 400 pairs of the resource that rewrote a pod in each namespace hold a Secret (400 s at
    // the resync's 1/s: 7 minutes); the other resource's 400 never do, and do not stretch it.
    assertEquals(Duration.ofMinutes(7), cluster.syncer().resyncPeriod());
  }
}
