package io.kuik.sim.bench;

import io.kuik.sim.dsl.KuikWorld;
import io.kuik.syncer.SyncerSettings;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * The syncer against two baselines on the same simulated hour: for each cluster size, the {@link
 * Workload} is run four times from the same seed, with kuik's syncer paced by its write limit and
 * resync spread, with the same syncer unpaced, with a periodic copier and with a cluster-wide
 * Secret replicator; then one table of what each sent and what it cost.
 *
 * <p>Run it from the simulator's runnable jar, from any folder (the chart files it needs are in the
 * jar):
 *
 * <pre>
 * ./mvnw -B -pl simulator -am package -DskipTests
 * java -Xmx12g -jar simulator/target/kuik-simulator-0.1.0-SNAPSHOT-all.jar simulate bench \
 *     100 1000 10000 [--only=kuik,kuik-unpaced,copier,replicator]
 * </pre>
 *
 * <p>Each row is printed as soon as its run ends; the ratios compare with the first row printed.
 */
public final class Benchmark {

  static final long SEED = 9;

  /** Simulated requests above which the periodic copier runs a shorter window. */
  static final long COPIER_BUDGET = 600_000;

  /** The contenders {@code --only} may name, in the order they run. */
  public static final List<String> CONTENDERS =
      List.of("kuik", "kuik-unpaced", "copier", "replicator");

  public static final List<Integer> DEFAULT_SIZES = List.of(100, 1_000, 10_000);

  private Benchmark() {}

  /**
   * Runs the workload at each size for the contenders in {@code only} (every one when empty),
   * printing each row to {@code out} as its run ends.
   */
  public static void run(List<Integer> sizes, List<String> only, PrintStream out) {
    out.println(
        "Simulated "
            + Workload.LENGTH.toMinutes()
            + " min: 20 ImageAlternatives (10 Always on half the namespaces, 10 OnFailure),"
            + " rollouts, a registry outage at "
            + Workload.OUTAGE_START.toMinutes()
            + " min, a restart at "
            + Workload.RESTART.toMinutes()
            + " min, kuik's resync every 10 min; steady state from "
            + Workload.STEADY_FROM.toMinutes()
            + " min.");
    for (int size : sizes) {
      Workload workload = new Workload(size, SEED);
      List<RunResult> results = new ArrayList<>();
      SyncerSettings paced =
          SyncerSettings.defaults(Workload.INSTALL_NAMESPACE)
              .withResyncSpread(KuikContender.RESYNC_PERIOD);
      SyncerSettings unpaced =
          SyncerSettings.defaults(Workload.INSTALL_NAMESPACE)
              .withWriteLimit(1e9, Integer.MAX_VALUE);
      Table.header(out, size);
      Map<String, Supplier<RunResult>> runs = new LinkedHashMap<>();
      runs.put(
          "kuik",
          () -> run("kuik", workload, Workload.LENGTH, (w, l) -> new KuikContender(w, paced)));
      runs.put(
          "kuik-unpaced",
          () ->
              run(
                  "kuik-unpaced",
                  workload,
                  Workload.LENGTH,
                  (w, l) -> new KuikContender(w, unpaced)));
      runs.put(
          "copier",
          () ->
              run("copier", workload, copierWindow(workload), (w, l) -> new PeriodicCopier(w, l)));
      runs.put(
          "replicator",
          () -> run("replicator", workload, Workload.LENGTH, (w, l) -> new SecretReplicator(w, l)));
      for (Map.Entry<String, Supplier<RunResult>> each : runs.entrySet()) {
        if (only.isEmpty() || only.contains(each.getKey())) {
          RunResult result = each.getValue().get();
          Table.row(out, result);
          results.add(result);
        }
      }
      Table.ratios(out, results);
    }
  }

  /** The copier sends a GET per copy every 10 s: past the budget, a shorter window. */
  static Duration copierWindow(Workload workload) {
    long perLoop = 21 + 15L * workload.size();
    long loops = Math.max(9, COPIER_BUDGET / perLoop);
    Duration window = PeriodicCopier.PERIOD.multipliedBy(loops);
    return window.compareTo(Workload.LENGTH) < 0 ? window : Workload.LENGTH;
  }

  static RunResult run(
      String name,
      Workload workload,
      Duration length,
      BiFunction<KuikWorld, Workload, Contender> contenderOf) {
    Meter meter = new Meter();
    KuikWorld world = new KuikWorld(workload.seed());
    Contender contender = contenderOf.apply(world, workload);
    workload.populate(world);
    Instant start = world.now();
    contender.start();
    List<Workload.Rewrite> rewrites = workload.schedule(world, contender);
    world.pass(length);
    Meter.Cost cost = meter.stop();
    return RunResult.read(
        name, workload, contender, world.cluster().trace(), start, length, rewrites, cost);
  }
}
