package io.kuik.scale;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The syncer at scale (docs/performance.md, "The syncer at scale"): for each cluster size P and
 * each runnable jar under test, fabric8's mock API server holding a {@link ScaleWorkload}, and the
 * real {@code kuik syncer} process ({@link ForkedSyncer}) against it with the chart's JVM options
 * and flags. Each (jar, P) goes through four phases, creating new rewritten pods one a second in
 * each and timing their Secrets: the first pass of a fresh process, steady state (then the heap
 * after a full GC), a resync, and the pass after a restart. One {@link ScaleTable} row per (jar,
 * P), and the requests by verb and resource beneath it.
 *
 * <p>Every address is on loopback; every wait is bounded by {@code kuik.scale.passCap}. Run by
 * {@code ./mvnw -B -ntp -pl controller -am verify -Pscale}; the argument is the runnable jar, or
 * the folder that holds it (the default jar under test).
 */
public final class ScaleHarness {

  /** How long the harness waits for a probe's Secret once the probe exists. */
  private static final Duration PROBE_WAIT = Duration.ofSeconds(60);

  private final ScaleSettings settings;
  private final PrintStream console;
  private final StringBuilder report = new StringBuilder();
  private int nextProbe;

  /** Each phase's probes' wait on the pull-secret gate, p50/p99, for the notes. */
  private final List<String> gateWaits = new ArrayList<>();

  private ScaleHarness(ScaleSettings settings, PrintStream console) {
    this.settings = settings;
    this.console = console;
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: ScaleHarness <kuik-controller-*-all.jar, or its folder>");
      System.exit(2);
    }
    Path jar = runnableJar(Path.of(args[0]));
    Path out = jar.toAbsolutePath().getParent().resolve("scale");
    Files.createDirectories(out);
    new ScaleHarness(ScaleSettings.fromSystemProperties(jar, out), System.out).run();
    // The mock API server keeps non-daemon threads.
    System.exit(0);
  }

  private void run() throws Exception {
    print(banner());
    List<ScaleTable.Row> rows = new ArrayList<>();
    for (int pods : settings.pods()) {
      for (ScaleSettings.Jar jar : settings.jars()) {
        ScaleTable.Row row = measure(jar, new ScaleWorkload(pods));
        rows.add(row);
        print(ScaleTable.header());
        print(ScaleTable.row(row));
        print(ScaleTable.requests("first process", row.first()));
        print(ScaleTable.requests("restarted process", row.restartWindow()));
        if (!row.note().isEmpty()) {
          print("    " + row.note() + "\n");
        }
      }
    }
    print("\nall rows:\n" + ScaleTable.header());
    rows.forEach(r -> print(ScaleTable.row(r)));
    print(ScaleTable.LEGEND);
    Path file = settings.out().resolve("report.txt");
    Files.writeString(file, report, StandardCharsets.UTF_8);
    console.println("report written to " + file);
  }

  private ScaleTable.Row measure(ScaleSettings.Jar jar, ScaleWorkload workload) throws Exception {
    Path work = Files.createTempDirectory(settings.out(), jar.label() + "-" + workload.pods + "-");
    List<String> needed = workload.neededSecrets();
    List<String> notes = new ArrayList<>();
    nextProbe = 0;
    gateWaits.clear();
    try (ScaleCluster cluster =
        new ScaleCluster(workload, work, settings.mockStore().equals("indexed"))) {
      long cpuAtStart = cpuNanos();
      long wallAtStart = System.nanoTime();
      ApiLedger ledger = cluster.ledger();
      ledger.mark();
      List<String> flags = ForkedSyncer.chartFlags(settings.resyncPeriod());
      long started = System.nanoTime();
      ScaleTable.Pass start;
      Latencies startProbes;
      Latencies steadyProbes = Latencies.none();
      Latencies resyncProbes = Latencies.none();
      double heap = -1;
      double rss = -1;
      ApiLedger.Window first;
      try (ForkedSyncer syncer =
          ForkedSyncer.start(
              jar.path(), flags, cluster.kubeconfig(), work.resolve("syncer-1.log"))) {
        if (!awaitReady(syncer, started)) {
          first = ledger.mark();
          return failed(jar, workload, needed, first, notes, syncer, cpuAtStart, wallAtStart);
        }
        startProbes = probes("first pass", cluster, ledger, workload);
        start = awaitPass(ledger, needed, started, syncer);
        if (syncer.alive()) {
          steadyProbes = probes("steady", cluster, ledger, workload);
          heap = syncer.heapAfterFullGcMiB();
          rss = syncer.rssMiB();
          String nativeMemory = syncer.nativeMemory();
          if (!nativeMemory.isEmpty()) {
            Files.writeString(work.resolve("native-memory-1.txt"), nativeMemory);
            notes.add("native memory after the full GC: " + work.resolve("native-memory-1.txt"));
          }
        }
        first = ledger.mark();
        long quietSince = System.nanoTime();
        if (syncer.alive() && awaitResync(ledger, quietSince)) {
          long resyncSeen = ledger.lastReapply();
          resyncProbes = probes("resync", cluster, ledger, workload);
          ApiLedger.Window during = ledger.mark();
          notes.add(during.reapplies() + " unchanged re-applies while the resync probes ran");
          notes.add(resyncCoverage(ledger, needed, resyncSeen, syncer));
          progress(notes.get(notes.size() - 1));
        } else {
          notes.add("no resync seen within " + resyncWait().toSeconds() + " s");
        }
        effectivePeriod(syncer.metrics()).ifPresent(notes::add);
        if (!syncer.alive()) {
          notes.add("syncer exited: " + lastLines(syncer.log()));
        }
      }
      ledger.mark();
      ledger.forgetFirstApplies();
      long restarted = System.nanoTime();
      ScaleTable.Pass restart = new ScaleTable.Pass(0, 0, 0, false);
      Latencies restartProbes = Latencies.none();
      ApiLedger.Window restartWindow;
      try (ForkedSyncer syncer =
          ForkedSyncer.start(
              jar.path(), flags, cluster.kubeconfig(), work.resolve("syncer-2.log"))) {
        if (awaitReady(syncer, restarted)) {
          restartProbes = probes("after the restart", cluster, ledger, workload);
          restart = awaitPass(ledger, needed, restarted, syncer);
        } else {
          restart = new ScaleTable.Pass(-1, 0, needed.size(), false);
          notes.add("restarted syncer never ready: " + lastLines(syncer.log()));
        }
        restartWindow = ledger.mark();
      }
      double mock = (cpuNanos() - cpuAtStart) / (double) (System.nanoTime() - wallAtStart);
      notes.add("probes' wait on the pull-secret gate, p50/p99 s: " + String.join(", ", gateWaits));
      return new ScaleTable.Row(
          jar.label(),
          workload.pods,
          workload.namespaces,
          needed.size(),
          heap,
          rss,
          start,
          first,
          restart,
          restartWindow,
          startProbes,
          steadyProbes,
          resyncProbes,
          restartProbes,
          mock,
          String.join("; ", notes));
    }
  }

  private ScaleTable.Row failed(
      ScaleSettings.Jar jar,
      ScaleWorkload workload,
      List<String> needed,
      ApiLedger.Window first,
      List<String> notes,
      ForkedSyncer syncer,
      long cpuAtStart,
      long wallAtStart) {
    notes.add(
        (syncer.alive() ? "not ready within " + settings.passCap().toSeconds() + " s" : "exited")
            + ": "
            + lastLines(syncer.log()));
    ScaleTable.Pass none = new ScaleTable.Pass(-1, 0, needed.size(), false);
    return new ScaleTable.Row(
        jar.label(),
        workload.pods,
        workload.namespaces,
        needed.size(),
        -1,
        -1,
        none,
        first,
        none,
        null,
        Latencies.none(),
        Latencies.none(),
        Latencies.none(),
        Latencies.none(),
        (cpuNanos() - cpuAtStart) / (double) (System.nanoTime() - wallAtStart),
        String.join("; ", notes));
  }

  /**
   * Creates {@code kuik.scale.probes} new rewritten pods, one a second, and times their Secrets.
   */
  private Latencies probes(
      String phase, ScaleCluster cluster, ApiLedger ledger, ScaleWorkload workload)
      throws InterruptedException {
    List<String> secrets = new ArrayList<>();
    List<String> pods = new ArrayList<>();
    List<Long> created = new ArrayList<>();
    long next = System.nanoTime();
    for (int p = 0; p < settings.probes(); p++) {
      int probe = nextProbe++;
      String namespace = workload.probeNamespace(probe);
      String rewriter = "onfailure-" + probe % ScaleWorkload.ON_FAILURE;
      sleepUntil(next);
      created.add(System.nanoTime());
      cluster.createGatedPod(namespace, "probe-" + probe, rewriter, 1_000_000L + probe);
      pods.add(namespace + "/probe-" + probe);
      secrets.add(namespace + "/" + ScaleWorkload.injected(rewriter));
      next += 1_000_000_000L;
    }
    long deadline = System.nanoTime() + PROBE_WAIT.toNanos();
    List<Long> millis = new ArrayList<>();
    for (int p = 0; p < secrets.size(); p++) {
      Long applied;
      while ((applied = ledger.firstApply(secrets.get(p))) == null
          && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      millis.add(
          applied == null ? Long.MAX_VALUE : Math.max(0, (applied - created.get(p)) / 1_000_000));
    }
    Latencies latencies = Latencies.of(millis, PROBE_WAIT.toMillis());
    progress(phase + " probes, p50/p99 s: " + latencies.cell());
    List<Long> gated = new ArrayList<>();
    for (int p = 0; p < pods.size(); p++) {
      Long released;
      while ((released = ledger.gateReleased(pods.get(p))) == null
          && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      gated.add(
          released == null ? Long.MAX_VALUE : Math.max(0, (released - created.get(p)) / 1_000_000));
    }
    Latencies gateWait = Latencies.of(gated, PROBE_WAIT.toMillis());
    progress(phase + " probes' wait on the pull-secret gate, p50/p99 s: " + gateWait.cell());
    gateWaits.add(phase + " " + gateWait.cell());
    return latencies;
  }

  private boolean awaitReady(ForkedSyncer syncer, long since) throws InterruptedException {
    long deadline = since + settings.passCap().toNanos();
    while (System.nanoTime() < deadline && syncer.alive()) {
      if (syncer.ready()) {
        return true;
      }
      Thread.sleep(200);
    }
    return false;
  }

  /** Waits until every needed Secret has been applied since {@code since}, or the cap. */
  private ScaleTable.Pass awaitPass(
      ApiLedger ledger, List<String> needed, long since, ForkedSyncer syncer)
      throws InterruptedException {
    long deadline = since + settings.passCap().toNanos();
    int done = 0;
    long last = since;
    for (String secret : needed) {
      Long applied;
      while ((applied = ledger.firstApply(secret)) == null
          && System.nanoTime() < deadline
          && syncer.alive()) {
        Thread.sleep(100);
      }
      if (applied == null) {
        break;
      }
      done++;
      last = Math.max(last, applied);
    }
    ScaleTable.Pass pass;
    if (done < needed.size()) {
      done = (int) needed.stream().filter(s -> ledger.firstApply(s) != null).count();
      pass = new ScaleTable.Pass((System.nanoTime() - since) / 1e9, done, needed.size(), false);
    } else {
      pass = new ScaleTable.Pass((last - since) / 1e9, done, needed.size(), true);
    }
    progress("pass, seconds: " + pass.cell());
    return pass;
  }

  /** Waits for the syncer to re-apply a Secret unchanged after {@code since}: a resync runs. */
  private boolean awaitResync(ApiLedger ledger, long since) throws InterruptedException {
    long deadline = System.nanoTime() + resyncWait().toNanos();
    while (System.nanoTime() < deadline) {
      if (ledger.lastReapply() > since) {
        return true;
      }
      Thread.sleep(200);
    }
    return false;
  }

  /**
   * Whether the resync applies every needed Secret within its effective period: waits from the
   * first unchanged re-apply seen (less a few seconds, the slots before it) until every needed
   * Secret was applied since, or the period and 30 s more have passed, at most {@code passCap}.
   */
  private String resyncCoverage(
      ApiLedger ledger, List<String> needed, long resyncSeen, ForkedSyncer syncer)
      throws InterruptedException {
    long from = resyncSeen - Duration.ofSeconds(5).toNanos();
    double period =
        effectivePeriodSeconds(syncer.metrics())
            .orElse((double) parseDuration(settings.resyncPeriod()).toSeconds());
    long until =
        Math.min(
            from + (long) ((period + 30) * 1e9), System.nanoTime() + settings.passCap().toNanos());
    long covered = ledger.appliedSince(needed, from);
    while (covered < needed.size() && System.nanoTime() < until && syncer.alive()) {
      Thread.sleep(2_000);
      covered = ledger.appliedSince(needed, from);
    }
    return String.format(
        Locale.ROOT,
        "resync coverage: %d of %d needed Secrets (%.0f %%) applied within %.0f s of the resync's"
            + " start, effective period %.0f s",
        covered,
        needed.size(),
        100.0 * covered / needed.size(),
        (System.nanoTime() - from) / 1e9,
        period);
  }

  static java.util.Optional<Double> effectivePeriodSeconds(String metrics) {
    return effectivePeriod(metrics)
        .map(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
  }

  private Duration resyncWait() {
    return parseDuration(settings.resyncPeriod()).multipliedBy(2).plusSeconds(30);
  }

  static Duration parseDuration(String text) {
    String t = text.trim();
    long value = Long.parseLong(t.replaceAll("[a-z]+$", ""));
    return switch (t.replaceAll("^[0-9]+", "")) {
      case "h" -> Duration.ofHours(value);
      case "m" -> Duration.ofMinutes(value);
      case "s" -> Duration.ofSeconds(value);
      case "ms" -> Duration.ofMillis(value);
      default -> throw new IllegalArgumentException("not a duration: " + text);
    };
  }

  /** The effective resync period, when the syncer exposes it. */
  static java.util.Optional<String> effectivePeriod(String metrics) {
    for (String line : metrics.split("\n")) {
      if (line.startsWith("kuik_syncer_resync_effective_period_seconds")) {
        return java.util.Optional.of(line.trim());
      }
    }
    return java.util.Optional.empty();
  }

  private String banner() {
    StringBuilder text = new StringBuilder();
    text.append("kuik syncer at scale, ").append(Instant.now()).append('\n');
    text.append(
        String.format(
            Locale.ROOT,
            "machine: %d cores, %s; %s %s; load average at start %s%n",
            Runtime.getRuntime().availableProcessors(),
            memTotal(),
            System.getProperty("java.vm.name"),
            System.getProperty("java.version"),
            loadAverages()));
    for (ScaleSettings.Jar jar : settings.jars()) {
      text.append("jar ").append(jar.label()).append(": ").append(jar.path()).append('\n');
    }
    text.append(
        String.format(
            Locale.ROOT,
            "syncer: java %s -jar <jar> syncer %s%n"
                + "pods of %d bytes of JSON (%d bytes when rewritten), %d per namespace, 1 in %d"
                + " rewritten; %d unrelated Secrets per namespace; %d ImageAlternatives (%d"
                + " Always); %d probe pods per phase, one a second; a pass is waited for at most"
                + " %d s; mock store: %s%n",
            String.join(" ", ForkedSyncer.CHART_JVM_OPTIONS),
            String.join(" ", ForkedSyncer.chartFlags(settings.resyncPeriod())),
            ScaleWorkload.podJson("team-0", "app-1", null, 1).length(),
            ScaleWorkload.podJson("team-0", "app-0", "onfailure-0", 0).length(),
            ScaleWorkload.PODS_PER_NAMESPACE,
            ScaleWorkload.REWRITTEN_EVERY,
            ScaleWorkload.UNRELATED_SECRETS,
            ScaleWorkload.ALWAYS + ScaleWorkload.ON_FAILURE,
            ScaleWorkload.ALWAYS,
            settings.probes(),
            settings.passCap().toSeconds(),
            settings.mockStore()));
    return text.toString();
  }

  /** A line on the console as the run goes (a long run can be read, or stopped, phase by phase). */
  private void progress(String line) {
    console.println(java.time.Instant.now() + "  " + line);
    console.flush();
  }

  private void print(String text) {
    console.print(text);
    console.flush();
    report.append(text);
  }

  private static void sleepUntil(long nanos) throws InterruptedException {
    long wait = nanos - System.nanoTime();
    if (wait > 0) {
      Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
    }
  }

  private static long cpuNanos() {
    return ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO).toNanos();
  }

  private static String lastLines(Path log) {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join(" | ", lines.subList(Math.max(0, lines.size() - 2), lines.size()));
    } catch (IOException unreadable) {
      return "(no log)";
    }
  }

  static Path runnableJar(Path given) throws IOException {
    if (Files.isRegularFile(given)) {
      return given;
    }
    try (DirectoryStream<Path> jars =
        Files.newDirectoryStream(given, "kuik-controller-*-all.jar")) {
      for (Path jar : jars) {
        return jar;
      }
    }
    throw new IOException("no kuik-controller-*-all.jar in " + given + ": run mvnw package first");
  }

  static String loadAverages() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException unknown) {
      return "n/a";
    }
  }

  private static String memTotal() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          long kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
          return String.format(Locale.ROOT, "%.1f GiB memory", kib / 1024.0 / 1024.0);
        }
      }
    } catch (IOException | NumberFormatException unknown) {
      // not Linux
    }
    return "unknown memory";
  }
}
