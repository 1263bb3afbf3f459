package io.kuik.scale;

import java.util.Locale;
import java.util.Map;

/** The harness's table: one row per (jar, P), and a legend for every column. */
final class ScaleTable {

  private ScaleTable() {}

  /**
   * How long a pass took, or how far it got when the harness stopped waiting; negative seconds: the
   * process exited (or never became ready) before it began.
   */
  record Pass(double seconds, int done, int needed, boolean complete) {
    String cell() {
      if (needed == 0) {
        return "n/a";
      }
      if (seconds < 0) {
        return "exited";
      }
      return complete
          ? String.format(Locale.ROOT, "%.0f", seconds)
          : String.format(Locale.ROOT, ">%.0f(%d%%)", seconds, 100L * done / needed);
    }
  }

  /** One (jar, P). */
  record Row(
      String jar,
      int pods,
      int namespaces,
      int needed,
      double heapMiB,
      double rssMiB,
      Pass start,
      ApiLedger.Window first,
      Pass restart,
      ApiLedger.Window restartWindow,
      Latencies startProbes,
      Latencies steadyProbes,
      Latencies resyncProbes,
      Latencies restartProbes,
      double mockCpuShare,
      String note) {}

  static final String FORMAT =
      "%-8s %7s %6s %7s %6s %6s %9s %7s %7s %8s %9s %6s %8s %9s %9s %9s %9s %5s %7s%n";

  static String header() {
    return String.format(
        Locale.ROOT,
        FORMAT,
        "jar",
        "P",
        "N",
        "needed",
        "heap",
        "RSS",
        "start_s",
        "reqs",
        "applies",
        "pages",
        "restart_s",
        "r.pgs",
        "r.listMB",
        "lat_start",
        "lat_stdy",
        "lat_rsyn",
        "lat_rstr",
        "mock%",
        "mock_ms");
  }

  static String row(Row r) {
    return String.format(
        Locale.ROOT,
        FORMAT,
        r.jar(),
        r.pods(),
        r.namespaces(),
        r.needed(),
        mib(r.heapMiB()),
        mib(r.rssMiB()),
        r.start().cell(),
        r.first() == null ? "n/a" : Long.toString(r.first().total()),
        r.first() == null ? "n/a" : Long.toString(r.first().count("apply")),
        r.first() == null ? "n/a" : Long.toString(r.first().pages()),
        r.restart().cell(),
        r.restartWindow() == null ? "n/a" : Long.toString(r.restartWindow().pages()),
        r.restartWindow() == null
            ? "n/a"
            : String.format(Locale.ROOT, "%.1f", r.restartWindow().listedBytes() / 1e6),
        r.startProbes().cell(),
        r.steadyProbes().cell(),
        r.resyncProbes().cell(),
        r.restartProbes().cell(),
        r.mockCpuShare() < 0 ? "n/a" : String.format(Locale.ROOT, "%.0f", r.mockCpuShare() * 100),
        r.first() == null || r.first().total() == 0
            ? "n/a"
            : String.format(Locale.ROOT, "%.2f", r.first().meanMillis()));
  }

  /** The syncer's requests of one window by verb and resource, e.g. {@code list pods 1, ...}. */
  static String requests(String what, ApiLedger.Window window) {
    if (window == null) {
      return "";
    }
    StringBuilder text = new StringBuilder("    " + what + " (the store's mean time each):");
    String separator = " ";
    for (Map.Entry<String, Long> e : window.byVerbAndResource().entrySet()) {
      text.append(separator)
          .append(e.getKey())
          .append(' ')
          .append(e.getValue())
          .append(String.format(Locale.ROOT, " (%.2f ms)", window.meanMillis(e.getKey())));
      separator = ", ";
    }
    text.append(
        String.format(
            Locale.ROOT,
            "; %d list pages, %.1f MB listed, %d unchanged re-applies%n",
            window.pages(),
            window.listedBytes() / 1e6,
            window.reapplies()));
    return text.toString();
  }

  private static String mib(double value) {
    return value < 0 ? "n/a" : String.format(Locale.ROOT, "%.0f", value);
  }

  static final String LEGEND =
      String.join(
          "\n",
          "legend:",
          "  jar        the runnable jar under test (kuik.scale.jars label)",
          "  P, N       live pods and namespaces of the cluster (5 % of the pods rewritten by kuik)",
          "  needed     Secrets that must exist: 5 Always resources x N, plus one per (OnFailure"
              + " resource, namespace) with a rewritten pod",
          "  heap       MiB of the syncer's heap in use right after a full GC (jcmd GC.run, then"
              + " GC.heap_info), once its first pass is over and the steady probes ran",
          "  RSS        the syncer process's resident memory then, MiB",
          "  start_s    seconds from the process's start until every needed Secret was applied;"
              + " >T(x%) = the harness stopped waiting after T s with x % applied",
          "  reqs       the first process's requests to the API server until the heap was read,"
              + " all verbs; applies: of them, server-side applies",
          "  pages      list requests (each page of a paginated list counts one) of the first"
              + " process",
          "  restart_s  after SIGTERM and a new process: seconds until every needed Secret was"
              + " applied again (the new process knows nothing of the old one's writes)",
          "  r.pgs      list pages of the restarted process; r.listMB: MB of JSON they returned",
          "  lat_*      p50/p99 seconds from a new rewritten pod's creation (in a namespace where"
              + " its Secret was not needed before) to the first apply of that Secret, over"
              + " kuik.scale.probes pods created one a second; start: during the first pass of a"
              + " fresh process; stdy: after it; rsyn: while the syncer re-applies unchanged"
              + " Secrets (a resync); rstr: during the pass after a restart; >W = not applied"
              + " within W s",
          "  mock%      CPU of the harness JVM (the mock API server) over the run, % of one core:"
              + " near 100 means the mock, not the syncer, set the pace",
          "  mock_ms    the mock's mean time answering one of the first process's requests, ms"
              + " (from the request's dispatch to its response; a watch: its upgrade only)",
          "");
}
