package io.kuik.load;

import java.time.Duration;
import java.util.Locale;

/**
 * The harness's table: one fixed-width row per offered rate (docs/performance.md, "The webhook
 * under load", has the legend), and the rule that says whether a rate held.
 */
final class LoadTable {

  /** A rate holds when at least this share of its admissions was answered in time, with a patch. */
  static final double HOLD_SHARE = 0.99;

  /**
   * One step's figures beside the generator's summary; a negative figure was not available.
   *
   * @param offered admissions a second the generator sent
   * @param length how long the generator sent them
   * @param elapsed from the step's first measure to its last, the last answers included: CPU shares
   *     are over this
   * @param rollouts rollouts that started in the step
   * @param requests HTTP requests the webhook sent to registries in the step
   * @param heads manifest HEADs the docker-registries logged in the step
   * @param webhookCpu CPU time of the webhook process in the step
   * @param harnessCpu CPU time of the harness process (generator and mock API server)
   * @param registriesCpu CPU time of the docker-registry processes
   * @param heapMiB the webhook's highest heap use in the step
   * @param gcMillis the webhook's GC time in the step
   * @param rssMiB the webhook's resident memory at the step's end
   * @param load the machine's 1-minute load average at the step's end
   * @param webhookThreads the webhook's busiest thread groups in the step ({@link ThreadCpu})
   */
  record Row(
      double offered,
      Duration length,
      Duration elapsed,
      StepSamples.Summary summary,
      long rollouts,
      double requests,
      double heads,
      Duration webhookCpu,
      Duration harnessCpu,
      Duration registriesCpu,
      double heapMiB,
      double gcMillis,
      double rssMiB,
      double load,
      String webhookThreads) {

    boolean holds() {
      return summary.routedShare() >= HOLD_SHARE;
    }
  }

  private static final String FORMAT =
      "%9s %6s %6s %6s %7s %6s %6s %6s %5s %5s %5s %8s %6s %7s %6s %7s %5s %5s %5s %5s %5s %5s%n";

  private LoadTable() {}

  static String header() {
    return String.format(
        Locale.ROOT,
        FORMAT,
        "offered/s",
        "sent",
        "held/s",
        "held%",
        "routed%",
        "p50",
        "p99",
        "max",
        "t/o",
        "err",
        "lag",
        "rollouts",
        "req/ro",
        "HEAD/ro",
        "wh-cpu",
        "cpu/adm",
        "heap",
        "gc",
        "rss",
        "h-cpu",
        "r-cpu",
        "load");
  }

  static String row(Row row) {
    StepSamples.Summary s = row.summary();
    double seconds = row.length().toNanos() / 1e9;
    return String.format(
        Locale.ROOT,
        FORMAT,
        whole(row.offered()),
        s.sent(),
        whole(s.held() / seconds),
        percent(s.heldShare()),
        percent(s.routedShare()),
        millis(s.p50()),
        millis(s.p99()),
        millis(s.max()),
        s.timeouts(),
        s.errors(),
        millis(s.lateness()),
        row.rollouts(),
        perRollout(row.requests(), row.rollouts()),
        perRollout(row.heads(), row.rollouts()),
        cores(row.webhookCpu(), row.elapsed()),
        perAdmission(row.webhookCpu(), s.sent()),
        orNa(row.heapMiB(), "%.0f"),
        orNa(row.gcMillis(), "%.0f"),
        orNa(row.rssMiB(), "%.0f"),
        cores(row.harnessCpu(), row.elapsed()),
        cores(row.registriesCpu(), row.elapsed()),
        orNa(row.load(), "%.1f"));
  }

  private static String whole(double value) {
    return String.format(Locale.ROOT, "%.0f", value);
  }

  private static String percent(double share) {
    return String.format(Locale.ROOT, "%.1f", share * 100);
  }

  private static String millis(Duration duration) {
    double ms = duration.toNanos() / 1e6;
    return String.format(Locale.ROOT, ms < 10 ? "%.1f" : "%.0f", ms);
  }

  private static String perRollout(double count, long rollouts) {
    return count < 0 || rollouts == 0
        ? "n/a"
        : String.format(Locale.ROOT, "%.2f", count / rollouts);
  }

  /** CPU time per admission sent, in ms. */
  private static String perAdmission(Duration cpu, int sent) {
    return cpu.isNegative() || sent == 0
        ? "n/a"
        : String.format(Locale.ROOT, "%.2f", cpu.toNanos() / 1e6 / sent);
  }

  /** CPU time over wall time, in % of one core. */
  private static String cores(Duration cpu, Duration wall) {
    return cpu.isNegative()
        ? "n/a"
        : String.format(Locale.ROOT, "%.0f%%", 100.0 * cpu.toNanos() / wall.toNanos());
  }

  private static String orNa(double value, String format) {
    return value < 0 ? "n/a" : String.format(Locale.ROOT, format, value);
  }
}
