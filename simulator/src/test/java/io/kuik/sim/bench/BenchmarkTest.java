package io.kuik.sim.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.syncer.SyncerSettings;
import org.junit.jupiter.api.Test;

/** The benchmark's hour on a small cluster: what the table claims must hold for it. */
class BenchmarkTest {

  private static final Workload SMALL = new Workload(20, 3);

  private static RunResult kuik(SyncerSettings settings) {
    return Benchmark.run("kuik", SMALL, Workload.LENGTH, (w, l) -> new KuikContender(w, settings));
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
  void periodicCopierSendsFarMoreRequestsThanTheSyncer() {
    RunResult syncer = kuik(SyncerSettings.defaults(Workload.INSTALL_NAMESPACE));
    RunResult copier =
        Benchmark.run("copier", SMALL, Workload.LENGTH, (w, l) -> new PeriodicCopier(w, l));

    assertTrue(
        copier.totalPerHour() > 10 * syncer.totalPerHour(),
        copier.totalPerHour() + " against " + syncer.totalPerHour());
    assertEquals(0, copier.rewritesWithoutSecret());
  }

  @Test
  void replicatorWritesEachCopyOnceAndThenOnlyWatches() {
    RunResult replicator =
        Benchmark.run("replicator", SMALL, Workload.LENGTH, (w, l) -> new SecretReplicator(w, l));

    // 10 Always resources on half of 20 namespaces, 10 OnFailure resources on all of them.
    assertEquals(10 * 10 + 10 * 20, replicator.writes());
    assertEquals(0, replicator.steadyPerHour());
  }
}
