package io.kuik.sim.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;

/** Prints one size's results as a fixed-width table, then the baselines' request ratios. */
final class Table {

  private Table() {}

  /** The size's heading and the columns' names. */
  static void header(PrintStream out, int size) {
    out.println();
    out.printf("== %,d namespaces ==%n", size);
    out.printf(
        "%-12s %9s %8s %9s %7s %9s %11s %11s %9s %9s %6s %12s %7s %8s %8s %5s%n",
        "contender",
        "writes",
        "no-ops",
        "GETs",
        "L+W",
        "watchEv",
        "req/h total",
        "req/h stdy",
        "wait p50",
        "wait max",
        "never",
        "restart",
        "peak/s",
        "cpu s",
        "wall s",
        "MiB");
  }

  /** One contender's row, printed as soon as its run ends. */
  static void row(PrintStream out, RunResult r) {
    out.printf(
        "%-12s %9s %8s %9s %7s %9s %11s %11s %9s %9s %6d %12s %7d %8.1f %8.1f %5d%s%n",
        r.name(),
        count(r, r.writes()),
        count(r, r.noOps()),
        count(r, r.reads()),
        count(r, r.listsAndWatches()),
        count(r, r.watchEvents()),
        String.format("%,d", r.totalPerHour()),
        String.format("%,d", r.steadyPerHour()),
        seconds(r.latencyMedian()),
        seconds(r.latencyMax()),
        r.rewritesWithoutSecret(),
        r.simulated().compareTo(Workload.RESTART) > 0
            ? r.restartWrites() + "w/" + seconds(r.restartBurst())
            : "-",
        r.peakWritesPerSecond(),
        r.cost().cpuMillis() / 1000.0,
        r.cost().wallMillis() / 1000.0,
        r.cost().peakHeapMib(),
        r.simulated().compareTo(Workload.LENGTH) < 0
            ? "  (simulated " + r.simulated().toSeconds() + " s, per-hour extrapolated)"
            : "");
  }

  /** The baselines' request ratios to the first row, kuik's. */
  static void ratios(PrintStream out, List<RunResult> results) {
    RunResult kuik = results.get(0);
    for (RunResult r : results.subList(1, results.size())) {
      out.printf(
          "ratio %s/kuik: requests in the hour %.1fx, at steady state %.1fx%n",
          r.name(),
          ratio(r.totalPerHour(), kuik.totalPerHour()),
          ratio(r.steadyPerHour(), kuik.steadyPerHour()));
    }
  }

  private static String count(RunResult r, long n) {
    return String.format("%,d", n);
  }

  private static double ratio(long a, long b) {
    return b == 0 ? Double.POSITIVE_INFINITY : (double) a / b;
  }

  private static String seconds(Duration d) {
    return d == null ? "-" : String.format("%.1fs", d.toMillis() / 1000.0);
  }
}
