package io.kuik.sim.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.syncer.SyncerSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The benchmark's hour on a small cluster: what the table claims must hold for it. */
class BenchmarkTest {

  private static final Workload SMALL = new Workload(20, 3);

  private static RunResult kuik(SyncerSettings settings) {
    return Benchmark.run("kuik", SMALL, (w, l) -> new KuikContender(w, settings));
  }

  @Test
  void pacedSyncerNeverWritesFasterThanItsBucketAllows() {
    SyncerSettings defaults = SyncerSettings.defaults(Workload.INSTALL_NAMESPACE);
    RunResult paced = kuik(defaults.withWriteLimit(5, 10));
    RunResult unpaced = kuik(defaults.withWriteLimit(1e9, Integer.MAX_VALUE));

    assertTrue(paced.peakWritesPerSecond() <= 15, "paced peak " + paced.peakWritesPerSecond());
    assertTrue(unpaced.peakWritesPerSecond() > 15, "unpaced peak " + unpaced.peakWritesPerSecond());
    assertEquals(0, paced.rewritesWithoutSecret());
    assertTrue(paced.noOps() > 0, "the resyncs' applies change nothing on the server");
  }

  @Test
  void theSyncerServesEveryNewNamespaceAndTheRotatedCredentialWithinTheHour() {
    RunResult syncer = kuik(SyncerSettings.defaults(Workload.INSTALL_NAMESPACE));

    UserFigures.Result figures = syncer.figures();
    assertEquals(0, figures.namespacesNever());
    assertTrue(within(figures.namespaceMax(), Duration.ofSeconds(5)), "" + figures);
    // The rotated source reaches every namespace from its watch event, not at the next resync.
    assertTrue(within(figures.rotationAll(), Duration.ofSeconds(30)), "" + figures);
    assertEquals(1.0, figures.rotationShare());
  }

  @Test
  void patcherLoopsOverEveryNamespaceWithinClientGosDefaultLimit() {
    RunResult syncer = kuik(SyncerSettings.defaults(Workload.INSTALL_NAMESPACE));
    RunResult patcher = Benchmark.run("patcher", SMALL, PullSecretPatcher::new);

    long limit =
        (long) (ClientGoThrottle.QPS * Workload.LENGTH.toSeconds()) + ClientGoThrottle.BURST;
    assertTrue(patcher.totalPerHour() <= limit, patcher.totalPerHour() + " above " + limit);
    assertTrue(
        patcher.totalPerHour() > 5 * syncer.totalPerHour(),
        patcher.totalPerHour() + " against " + syncer.totalPerHour());
    assertEquals(0, patcher.figures().namespacesNever());
    // Its loop, every 10 s and paced by the client's limit, takes the rotation everywhere.
    assertTrue(within(patcher.figures().rotationAll(), Duration.ofMinutes(1)), "" + patcher);
  }

  @Test
  void replicatorWritesEachCopyOnceAndTheRotatedOnesAgain() {
    RunResult replicator = Benchmark.run("replicator", SMALL, SecretReplicator::new);

    // 10 Always resources on half of 20 namespaces, 10 OnFailure resources on all of them; then
    // the 12 new namespaces, all selected; then resource 0 rotated in the 10 + 9 selected
    // namespaces that exist at 45 min.
    assertEquals(10 * 10 + 10 * 20 + 12 * 20 + (10 + 9), replicator.writes());
  }

  @Test
  void withPullSecretFirstNoRewrittenPodIsSchedulableBeforeItsCredentialAndTheWaitIsBounded() {
    SyncerSettings defaults = SyncerSettings.defaults(Workload.INSTALL_NAMESPACE);
    RunResult first = kuik(defaults.withReleasesGates(true));
    RunResult plain = kuik(defaults);

    System.out.println(
        "kuik-first at 20 namespaces: early "
            + first.rewritesBeforeSecret()
            + " of "
            + first.rewrites()
            + ", gate p50 "
            + first.gateMedian()
            + ", p99 "
            + first.gateP99()
            + "; kuik: early "
            + plain.rewritesBeforeSecret());
    assertTrue(plain.rewritesBeforeSecret() > 0, "the race the gate closes: " + plain);
    assertEquals(0, first.rewritesBeforeSecret(), "early pods with the gate");
    assertEquals(0, first.stillGated(), "every gate removed");
    assertTrue(first.gateMedian().compareTo(Duration.ZERO) > 0, "pods were gated");
    assertTrue(
        first.gateP99().compareTo(KuikContender.MAX_WAIT) <= 0, "within the bound: " + first);
    assertEquals(Duration.ZERO, plain.gateP99(), "no gate without the value");
  }

  /** Whether a figure was reached (null: never within the hour) within {@code bound}. */
  private static boolean within(Duration figure, Duration bound) {
    return figure != null && figure.compareTo(bound) <= 0;
  }

  @Test
  void clientGoThrottleLetsTheBurstThroughThenOneRequestPerFifthOfASecond() {
    io.kuik.sim.time.EventLoop loop = new io.kuik.sim.time.EventLoop(1);
    ClientGoThrottle throttle = new ClientGoThrottle(loop);
    for (int i = 0; i < ClientGoThrottle.BURST; i++) {
      assertEquals(Duration.ZERO, throttle.reserve());
    }
    assertEquals(Duration.ofMillis(200), throttle.reserve());
    assertEquals(Duration.ofMillis(400), throttle.reserve());
    loop.runFor(Duration.ofSeconds(10));
    assertEquals(Duration.ZERO, throttle.reserve());
  }
}
