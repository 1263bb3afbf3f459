package io.kuik.sim.bench;

import io.kuik.sim.dsl.KuikWorld;
import io.kuik.syncer.SyncerSettings;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * The syncer against two baselines on the same simulated hour: for each cluster size, the {@link
 * Workload} is run from the same seed with kuik's syncer as the chart installs it (20 writes/s,
 * burst 50), with the same syncer held to client-go's default 5 requests/s and burst 10 (the
 * baselines' budget), with imagepullsecret-patcher ({@link PullSecretPatcher}) and with
 * kubernetes-replicator ({@link SecretReplicator}), both as their projects run them; then one table
 * of what a user of the cluster sees, what each sent, and the memory each one holds.
 *
 * <p>Run it from the simulator's runnable jar, from any folder (the chart files it needs are in the
 * jar):
 *
 * <pre>
 * ./mvnw -B -pl simulator -am package -DskipTests
 * java -Xmx12g -jar simulator/target/kuik-simulator-0.1.0-SNAPSHOT-all.jar simulate bench \
 *     100 1000 [--only=kuik,kuik-first,kuik-5qps,patcher,replicator]
 * </pre>
 *
 * <p>Each row is printed as soon as its run ends, and the legend after each size's table.
 */
public final class Benchmark {

  static final long SEED = 9;

  /** After its hour a contender is stopped, and the world runs this long for its timers to end. */
  static final Duration DRAIN = Duration.ofMinutes(11);

  /** The contenders {@code --only} may name, in the order they run. */
  public static final List<String> CONTENDERS =
      List.of("kuik", "kuik-first", "kuik-5qps", "patcher", "replicator");

  public static final List<Integer> DEFAULT_SIZES = List.of(100, 1_000);

  private Benchmark() {}

  /**
   * Runs the workload at each size for the contenders in {@code only} (every one when empty),
   * printing each row to {@code out} as its run ends.
   */
  public static void run(List<Integer> sizes, List<String> only, PrintStream out) {
    out.println(
        "Simulated "
            + Workload.LENGTH.toMinutes()
            + " min: 20 ImageAlternatives (10 Always on half the namespaces, 10 OnFailure), "
            + Workload.LIVE_PODS
            + " live pods per namespace (1 in "
            + Workload.REWRITTEN_EVERY
            + " rewritten), "
            + Workload.UNRELATED_SECRETS
            + " unrelated Secrets per namespace, rollouts, a registry outage at "
            + Workload.OUTAGE_START.toMinutes()
            + " min, a new namespace every "
            + Workload.NEW_NAMESPACE_EVERY.toMinutes()
            + " min, a credential rotated at "
            + Workload.ROTATION.toMinutes()
            + " min, a restart at "
            + Workload.RESTART.toMinutes()
            + " min; kuik's resync every 10 min; steady state from "
            + Workload.STEADY_FROM.toMinutes()
            + " min.");
    for (int size : sizes) {
      Workload workload = new Workload(size, SEED);
      SyncerSettings chart =
          SyncerSettings.defaults(Workload.INSTALL_NAMESPACE)
              .withResyncPeriod(KuikContender.RESYNC_PERIOD);
      SyncerSettings clientGoBudget =
          chart.withWriteLimit(ClientGoThrottle.QPS, ClientGoThrottle.BURST);
      Table.header(out, size);
      Map<String, Supplier<RunResult>> runs = new LinkedHashMap<>();
      runs.put("kuik", () -> run("kuik", workload, (w, l) -> new KuikContender(w, chart)));
      SyncerSettings first = chart.withReleasesGates(true);
      runs.put(
          "kuik-first", () -> run("kuik-first", workload, (w, l) -> new KuikContender(w, first)));
      runs.put(
          "kuik-5qps",
          () -> run("kuik-5qps", workload, (w, l) -> new KuikContender(w, clientGoBudget)));
      runs.put("patcher", () -> run("patcher", workload, PullSecretPatcher::new));
      runs.put("replicator", () -> run("replicator", workload, SecretReplicator::new));
      for (Map.Entry<String, Supplier<RunResult>> each : runs.entrySet()) {
        if (only.isEmpty() || only.contains(each.getKey())) {
          Table.row(out, each.getValue().get());
        }
      }
      Table.legend(out);
    }
  }

  static RunResult run(
      String name, Workload workload, BiFunction<KuikWorld, Workload, Contender> contenderOf) {
    Meter meter = new Meter();
    KuikWorld world = new KuikWorld(workload.seed());
    Contender contender = contenderOf.apply(world, workload);
    workload.populate(world);
    Instant start = world.now();
    contender.start();
    List<Workload.Rewrite> rewrites = workload.schedule(world, contender);
    UserFigures figures = new UserFigures(world, workload, contender, Workload.LENGTH);
    figures.schedule();
    world.pass(Workload.LENGTH);
    Meter.Cost cost = meter.stop();
    // What the contender holds: the heap with it, less the heap once it let go of everything,
    // with the same world (the API server's objects, the trace) still there.
    long with = Meter.heapAfterGc();
    contender.stop();
    world.pass(DRAIN);
    long without = Meter.heapAfterGc();
    return RunResult.read(
        name,
        workload,
        contender,
        world.cluster().trace(),
        start,
        Workload.LENGTH,
        rewrites,
        figures.result(),
        Math.max(0, with - without) / (1024.0 * 1024.0),
        cost);
  }
}
