package io.kuik.sim.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/** Prints one size's results as a fixed-width table, and a legend of its columns. */
final class Table {

  private static final String FORMAT =
      "%-11s %10s %9s %7s %9s %9s %9s %10s %7s %6s %6s %9s %9s %9s %9s %12s %8s %7s%n";

  private Table() {}

  /** The size's heading and the columns' names. */
  static void header(PrintStream out, int size) {
    out.println();
    out.printf(Locale.ROOT, "== %,d namespaces ==%n", size);
    out.printf(
        Locale.ROOT,
        FORMAT,
        "contender",
        "req/h",
        "writes",
        "L+W",
        "newNs p50",
        "newNs max",
        "rotate",
        "rotated%",
        "rewrites",
        "early",
        "never",
        "wait p50",
        "wait max",
        "gate p50",
        "gate p99",
        "restart",
        "own MiB",
        "cpu s");
  }

  /** One contender's row, printed as soon as its run ends. */
  static void row(PrintStream out, RunResult r) {
    UserFigures.Result f = r.figures();
    out.printf(
        Locale.ROOT,
        FORMAT,
        r.name(),
        String.format(Locale.ROOT, "%,d", r.totalPerHour()),
        String.format(Locale.ROOT, "%,d", r.writes()),
        String.format(Locale.ROOT, "%,d", r.listsAndWatches()),
        seconds(f.namespaceMedian()),
        f.namespacesNever() > 0 ? f.namespacesNever() + " never" : seconds(f.namespaceMax()),
        f.rotationAll() == null ? "> hour" : seconds(f.rotationAll()),
        String.format(Locale.ROOT, "%.0f%%", f.rotationShare() * 100),
        r.rewrites(),
        r.rewritesBeforeSecret(),
        r.rewritesWithoutSecret(),
        seconds(r.latencyMedian()),
        seconds(r.latencyMax()),
        seconds(r.gateMedian()),
        r.stillGated() > 0 ? r.stillGated() + " held" : seconds(r.gateP99()),
        r.restartWrites() + "w/" + seconds(r.restartBurst()),
        String.format(Locale.ROOT, "%.1f", r.retainedMib()),
        String.format(Locale.ROOT, "%.1f", r.cost().cpuMillis() / 1000.0));
  }

  /** What every column means. */
  static void legend(PrintStream out) {
    out.print(
        String.join(
            "\n",
            "  req/h      the contender's requests to the API server in the simulated hour, every"
                + " verb (lists and watches included)",
            "  writes     of them, creates, updates, patches, applies and deletes",
            "  L+W        of them, lists and watch starts",
            "  newNs      for the "
                + Workload.NEW_NAMESPACES
                + " namespaces created during the"
                + " hour (one every "
                + Workload.NEW_NAMESPACE_EVERY.toMinutes()
                + " min), the"
                + " time until every Always credential they need is there for a new pod (1 s"
                + " samples): median and longest; 'n never' = n namespaces still without it at"
                + " the end",
            "  rotate     from the rotation of one Always resource's source credential until every"
                + " namespace it serves holds the new one (5 s samples); '> hour' = not within"
                + " the hour; rotated%: the share that did",
            "  rewrites   rewritten pods created during the hour (rollouts, the outage's wave);"
                + " early: of them, schedulable (created, or released from the pull-secret gate)"
                + " while their credential was not there for them (they start and pull before"
                + " it); never: their Secret was never written after them",
            "  wait       time from a rewritten pod to the first write of its Secret, 0 when its"
                + " credential was already there: median and longest over every rewrite",
            "  gate       time a rewritten pod waited on the pull-secret gate before it could be"
                + " scheduled (0 when it was not gated): median and 99th percentile over every"
                + " rewrite; 'n held' = n pods whose gate was never removed",
            "  restart    writes in the burst after the restart at "
                + Workload.RESTART.toMinutes()
                + " min, and how long it lasted",
            "  own MiB    the heap the contender itself held at the end of the hour (its caches"
                + " and state): heap after a full GC, less the same after it stopped and let go,"
                + " the simulated cluster unchanged",
            "  cpu s      CPU the whole simulated hour took (cluster, kubelet and contender)",
            "",
            "  kuik: the chart's defaults (20 writes/s, burst 50); kuik-5qps: the same held to"
                + " client-go's default budget (5/s, burst 10) that both baselines run with;"
                + " kuik-first: kuik with pullSecretFirst.enabled (the gate, maxWait 30 s);"
                + " patcher: imagepullsecret-patcher, one Secret holding every credential, its"
                + " 10 s loop; replicator: kubernetes-replicator, informers on every Secret and"
                + " namespace, resync 30 min",
            ""));
  }

  private static String seconds(Duration d) {
    return d == null ? "-" : String.format(Locale.ROOT, "%.1fs", d.toMillis() / 1000.0);
  }
}
