package io.kuik.scale;

import io.kuik.image.ChartJvmOptions;
import io.kuik.webhook.TestCertificates;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A tenant's flood of gated pods, from outside (docs/performance.md, "Gate releases under a
 * flood"): fabric8's mock API server holding a {@link ScaleWorkload}, and the runnable jar with the
 * chart's JVM options and flags.
 *
 * <ol>
 *   <li>The webhook alone ({@code --pull-secret-first=true --gate-max-wait=30s}, no syncer), ready
 *       before the flood: {@code kuik.flood.pods} gated pods created as fast as the mock takes them
 *       in one namespace, and a probe in another every second meanwhile; each pod's lateness past
 *       its bound (release − creation − 30 s) is timed.
 *   <li>The syncer ({@code --release-gates=true}): as many gated pods created at once in another
 *       namespace, whose Secret is there, so that all their releases are due together; meanwhile a
 *       probe pod is created every 2 s in other namespaces, and each probe's wait from its creation
 *       (its Secret is already there: Always) to its release is timed. The syncer stops after.
 *   <li>A webhook started while the syncer's flood is still gated: how long until it knows them.
 * </ol>
 *
 * Run by {@code ./mvnw -B -ntp -pl controller -am verify -Pgate-flood}; the argument is the
 * runnable jar, or the folder that holds it.
 */
public final class GateFloodHarness {

  private static final Duration MAX_WAIT = Duration.ofSeconds(30);
  private static final int PROBES = 10;

  private final Path jar;
  private final Path out;
  private final int flood;
  private final StringBuilder report = new StringBuilder();

  private GateFloodHarness(Path jar, Path out, int flood) {
    this.jar = jar;
    this.out = out;
    this.flood = flood;
  }

  public static void main(String[] args) throws Exception {
    Path jar = ScaleHarness.runnableJar(Path.of(args[0]));
    Path out = jar.toAbsolutePath().getParent().resolve("gate-flood");
    Files.createDirectories(out);
    new GateFloodHarness(jar, out, Integer.getInteger("kuik.flood.pods", 10_000)).run();
    System.exit(0); // the mock API server keeps non-daemon threads
  }

  private void run() throws Exception {
    print(
        "gate flood: "
            + flood
            + " gated pods in one namespace, "
            + PROBES
            + " probes in others; jar "
            + jar.getFileName()
            + "; load "
            + ScaleHarness.loadAverages()
            + "\n");
    Path work = Files.createTempDirectory(out, "run-");
    try (ScaleCluster cluster = new ScaleCluster(new ScaleWorkload(200), work, true)) {
      // The webhook first: its flood ends released, and leaves the syncer's phase alone.
      webhookUnderTheFlood(cluster, work);
      int stillGated = syncerUnderTheFlood(cluster, work);
      webhookStartedDuringTheFlood(cluster, work, stillGated);
    }
    print("load at the end " + ScaleHarness.loadAverages() + "\n");
    Files.writeString(out.resolve("report.txt"), report, StandardCharsets.UTF_8);
  }

  private int syncerUnderTheFlood(ScaleCluster cluster, Path work) throws Exception {
    try (ForkedSyncer syncer =
        ForkedSyncer.start(
            jar,
            ForkedSyncer.chartFlags("10m"),
            cluster.kubeconfig(),
            work.resolve("syncer.log"))) {
      awaitReady(syncer);
      String secret = ScaleWorkload.injected("always-0");
      for (int j = 0; j < 20; j++) {
        awaitApplied(cluster, ScaleWorkload.namespace(j) + "/" + secret);
      }
      long started = System.nanoTime();
      Map<String, Long> created = createFlood(cluster, ScaleWorkload.namespace(0), "hold-");
      Map<String, Long> probes = new ConcurrentHashMap<>();
      for (int i = 0; i < PROBES; i++) {
        String namespace = ScaleWorkload.namespace(1 + i % 18);
        cluster.createGatedPod(namespace, "probe-" + i, "always-0", 2_000_000L + i);
        probes.put(namespace + "/probe-" + i, System.nanoTime());
        Thread.sleep(2_000);
      }
      List<Long> waits = releasedAfter(cluster, probes, Duration.ZERO, Duration.ofSeconds(60));
      long floodReleased =
          created.keySet().stream().filter(p -> cluster.ledger().gateReleased(p) != null).count();
      double seconds = (System.nanoTime() - started) / 1e9;
      print(
          String.format(
              Locale.ROOT,
              "syncer, --api-qps=20 --api-burst=50: a probe of another namespace released"
                  + " after its creation (its Secret already there) p50/p99/max %s s;"
                  + " %d of the %d flood pods released in %.0f s (%.1f a second)%n",
              triple(waits),
              floodReleased,
              flood,
              seconds,
              floodReleased / seconds));
      return (int) (flood - floodReleased);
    }
  }

  /**
   * A webhook that starts while the syncer's flood is still gated (the syncer stopped): how long
   * until it knows every one of them, listed in its pages, and so enforces their bound.
   */
  private void webhookStartedDuringTheFlood(ScaleCluster cluster, Path work, int gated)
      throws Exception {
    long started = System.nanoTime();
    try (ForkedSyncer webhook = startWebhook(cluster, work, "webhook-2.log")) {
      awaitReady(webhook);
      long deadline = System.nanoTime() + Duration.ofSeconds(600).toNanos();
      double known = 0;
      while (System.nanoTime() < deadline
          && (known = metric(webhook.metrics(), "kuik_webhook_pods_gated")) < gated * 0.99) {
        Thread.sleep(500);
      }
      print(
          String.format(
              Locale.ROOT,
              "a webhook started with %d pods gated knew %.0f of them %.1f s after its start%n",
              gated,
              known,
              (System.nanoTime() - started) / 1e9));
    }
  }

  private static double metric(String exposition, String name) {
    return exposition
        .lines()
        .filter(l -> l.startsWith(name + " "))
        .mapToDouble(l -> Double.parseDouble(l.substring(name.length() + 1).trim()))
        .findFirst()
        .orElse(0);
  }

  private ForkedSyncer startWebhook(ScaleCluster cluster, Path work, String log) throws Exception {
    Path tls = work.resolve("tls");
    if (!Files.exists(tls.resolve("tls.crt"))) {
      Files.createDirectories(tls);
      TestCertificates.Pair pair = TestCertificates.generate(tls, "webhook", "RSA");
      TestCertificates.write(
          tls.resolve("tls.crt"),
          tls.resolve("tls.key"),
          pair,
          TestCertificates.pkcs1Pem(pair.key()));
    }
    List<String> flags =
        List.of(
            "--port=" + ForkedSyncer.freePort(),
            "--cluster-resource-namespace=" + ScaleWorkload.INSTALL_NAMESPACE,
            "--tls-cert-file=" + tls.resolve("tls.crt"),
            "--tls-key-file=" + tls.resolve("tls.key"),
            "--shutdown-delay=0s",
            "--pull-secret-first=true",
            "--gate-max-wait=" + MAX_WAIT.toSeconds() + "s",
            "--log-format=json");
    return ForkedSyncer.start(
        jar,
        "webhook",
        ChartJvmOptions.of("webhook"),
        flags,
        cluster.kubeconfig(),
        work.resolve(log));
  }

  private void webhookUnderTheFlood(ScaleCluster cluster, Path work) throws Exception {
    try (ForkedSyncer webhook = startWebhook(cluster, work, "webhook.log")) {
      awaitReady(webhook);
      Thread.sleep(5_000); // its informer of gated pods listed (none yet) and watches
      Map<String, Long> probes = new ConcurrentHashMap<>();
      Thread prober =
          new Thread(
              () -> {
                for (int i = 0; i < PROBES; i++) {
                  String namespace = ScaleWorkload.namespace(1 + i % 18);
                  cluster.createGatedPod(namespace, "late-" + i, "always-0", 3_000_000L + i);
                  probes.put(namespace + "/late-" + i, System.nanoTime());
                  try {
                    Thread.sleep(1_000);
                  } catch (InterruptedException interrupted) {
                    return;
                  }
                }
              });
      cluster.ledger().mark();
      prober.start();
      long started = System.nanoTime();
      Map<String, Long> created = createFlood(cluster, ScaleWorkload.namespace(19), "held-");
      double creating = (System.nanoTime() - started) / 1e9;
      prober.join();
      Duration patience = MAX_WAIT.plusSeconds(120);
      List<Long> floodLate = releasedAfter(cluster, created, MAX_WAIT, patience);
      List<Long> probesLate = releasedAfter(cluster, probes, MAX_WAIT, patience);
      double releasing = (System.nanoTime() - started) / 1e9 - MAX_WAIT.toSeconds();
      ApiLedger.Window window = cluster.ledger().mark();
      print(
          String.format(
              Locale.ROOT,
              "webhook alone, --gate-max-wait=%ds: %d flood pods created in %.1f s (%.0f a"
                  + " second); lateness past the bound (release - creation - %ds) p50/p99/max,"
                  + " flood %s s, probes of other namespaces %s s; about %.0f releases a second,"
                  + " the mock's store %.1f ms a pod patch%n",
              MAX_WAIT.toSeconds(),
              flood,
              creating,
              flood / creating,
              MAX_WAIT.toSeconds(),
              triple(floodLate),
              triple(probesLate),
              flood / releasing,
              window.meanMillis("patch pods")));
    }
  }

  /** The flood, created by 8 threads as fast as the mock takes it; each pod's creation time. */
  private Map<String, Long> createFlood(ScaleCluster cluster, String namespace, String prefix)
      throws InterruptedException {
    Map<String, Long> created = new ConcurrentHashMap<>();
    ExecutorService creators = Executors.newFixedThreadPool(8);
    for (int i = 0; i < flood; i++) {
      int n = i;
      creators.execute(
          () -> {
            cluster.createGatedPod(namespace, prefix + n, "always-0", 1_000_000L + n);
            created.put(namespace + "/" + prefix + n, System.nanoTime());
          });
    }
    creators.shutdown();
    creators.awaitTermination(10, TimeUnit.MINUTES);
    return created;
  }

  /**
   * Each pod's release time minus its creation minus {@code bound}, in ms, once every one was
   * released or {@code patience} passed (one never released counts as the patience).
   */
  private static List<Long> releasedAfter(
      ScaleCluster cluster, Map<String, Long> created, Duration bound, Duration patience)
      throws InterruptedException {
    long deadline = System.nanoTime() + patience.toNanos();
    while (System.nanoTime() < deadline
        && created.keySet().stream().anyMatch(p -> cluster.ledger().gateReleased(p) == null)) {
      Thread.sleep(500);
    }
    List<Long> late = new ArrayList<>();
    created.forEach(
        (pod, at) -> {
          Long released = cluster.ledger().gateReleased(pod);
          long millis =
              released == null
                  ? patience.toMillis()
                  : (released - at) / 1_000_000 - bound.toMillis();
          late.add(millis);
        });
    return late;
  }

  private static String triple(List<Long> millis) {
    long[] sorted = millis.stream().mapToLong(Long::longValue).sorted().toArray();
    return String.format(
        Locale.ROOT,
        "%.2f/%.2f/%.2f",
        Latencies.percentile(sorted, 0.50) / 1000.0,
        Latencies.percentile(sorted, 0.99) / 1000.0,
        sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1000.0);
  }

  private static void awaitReady(ForkedSyncer process) throws InterruptedException, IOException {
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (System.nanoTime() < deadline && process.alive()) {
      if (process.ready()) {
        return;
      }
      Thread.sleep(200);
    }
    throw new IOException("not ready within 120 s: see " + process.log());
  }

  private static void awaitApplied(ScaleCluster cluster, String secret)
      throws InterruptedException, IOException {
    long deadline = System.nanoTime() + Duration.ofSeconds(300).toNanos();
    while (cluster.ledger().firstApply(secret) == null) {
      if (System.nanoTime() > deadline) {
        throw new IOException(secret + " never applied");
      }
      Thread.sleep(200);
    }
  }

  private void print(String line) {
    System.out.print(line);
    report.append(line);
  }
}
