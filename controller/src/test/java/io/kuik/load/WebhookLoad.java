package io.kuik.load;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kuik.kube.MockCluster;
import io.kuik.model.crd.ImageAlternative;
import io.kuik.model.crd.ImageMirror;
import io.kuik.webhook.LocalRegistry;
import io.kuik.webhook.TestCertificates;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The webhook under load (docs/performance.md, "The webhook under load"): the real {@code kuik
 * webhook} process from the runnable jar, on loopback, against fabric8's mock API server holding
 * the routing resources, the namespaces and the {@code secretRef} Secret; two real {@code
 * docker-registry} processes behind the alternatives (one anonymous, one behind htpasswd);
 * originals that refuse connections, lack the image or (outage scenario) never answer. An {@link
 * OpenLoop} generator sends the {@link LoadWorkload}'s AdmissionReviews at each offered rate for a
 * fixed time and prints one {@link LoadTable} row per rate, until a rate does not hold.
 *
 * <p>Every address is on loopback; every loop is bounded by its count and the API server's timeout.
 * Run by {@code ./mvnw -B -ntp -pl controller -am verify -Pwebhook-load}; the argument is the
 * runnable jar, or the folder that holds it.
 */
public final class WebhookLoad {

  private static final String USER = "kuik-load";
  private static final String PASSWORD = "password-of-kuik-load";
  private static final int PRIMING = 20;

  private final LoadSettings settings;
  private final PrintStream console;
  private final StringBuilder report = new StringBuilder();
  private long nextPod;

  private WebhookLoad(LoadSettings settings, PrintStream console) {
    this.settings = settings;
    this.console = console;
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: WebhookLoad <kuik-controller-*-all.jar, or its folder>");
      System.exit(2);
    }
    Path jar = runnableJar(Path.of(args[0]));
    Path out = jar.toAbsolutePath().getParent().resolve("webhook-load");
    Files.createDirectories(out);
    if (!LocalRegistry.installed()) {
      System.err.println(LocalRegistry.INSTALL_HINT);
      System.exit(1);
    }
    LoadSettings settings = LoadSettings.fromSystemProperties(jar, out);
    new WebhookLoad(settings, System.out).run();
    // The mock API server and the HTTP clients keep non-daemon threads.
    System.exit(0);
  }

  private void run() throws Exception {
    requireRefused("localhost", 80, "the ImageMirror's originals (localhost/mesh/proxy)");
    Path work = Files.createTempDirectory(settings.out(), "run-");
    try (LocalRegistry open = LocalRegistry.startAnonymous(dir(work, "open"));
        LocalRegistry secured = LocalRegistry.start(dir(work, "secured"), USER, PASSWORD);
        SilentRegistry silent = new SilentRegistry();
        MockCluster cluster = new MockCluster()) {
      int deadPort = LocalRegistry.freePort();
      requireRefused("127.0.0.1", deadPort, "the apps' originals");
      LoadWorkload.Hosts hosts =
          new LoadWorkload.Hosts(
              open.host(), secured.host(), "127.0.0.1:" + deadPort, silent.host());
      arrange(cluster.client(), hosts);
      pushFixed(open, secured, new LoadWorkload(hosts, LoadWorkload.Scenario.HEALTHY, 1));
      Path tls = dir(work, "tls");
      TestCertificates.Pair pair = TestCertificates.generate(tls, "webhook", "RSA");
      Path cert = tls.resolve("tls.crt");
      Path key = tls.resolve("tls.key");
      TestCertificates.write(cert, key, pair, TestCertificates.pkcs1Pem(pair.key()));
      HttpClient http =
          HttpClient.newBuilder()
              .sslContext(TestCertificates.trusting(pair.certificate()))
              .version(HttpClient.Version.HTTP_1_1)
              .connectTimeout(settings.apiTimeout())
              .build();
      print(banner());
      for (LoadWorkload.Scenario scenario : settings.scenarios()) {
        LoadWorkload workload = new LoadWorkload(hosts, scenario, settings.podsPerRollout());
        runScenario(workload, scenario, http, secured, open, cert, key, cluster.kubeconfig());
      }
    }
    Path file = settings.out().resolve("report.txt");
    Files.writeString(file, report, StandardCharsets.UTF_8);
    console.println("report written to " + file);
  }

  private void runScenario(
      LoadWorkload workload,
      LoadWorkload.Scenario scenario,
      HttpClient http,
      LocalRegistry secured,
      LocalRegistry open,
      Path cert,
      Path key,
      Path kubeconfig)
      throws Exception {
    List<String> jvm = new ArrayList<>(WebhookProcess.CHART_JVM_OPTIONS);
    if (settings.jfr()) {
      jvm.add(
          "-XX:StartFlightRecording=settings=profile,filename="
              + settings.out().resolve("webhook-" + scenario.label() + ".jfr"));
    }
    List<String> flags =
        List.of(
            "--cluster-resource-namespace=" + LoadWorkload.INSTALL_NAMESPACE,
            "--tls-cert-file=" + cert,
            "--tls-key-file=" + key,
            "--probe-timeout=2s",
            "--log-format=json",
            "--shutdown-delay=0s");
    Path log = settings.out().resolve("webhook-" + scenario.label() + ".log");
    print(
        String.format(
            Locale.ROOT,
            "%nscenario %s: %s%nwebhook: java %s -jar %s webhook %s%n",
            scenario.label(),
            scenario.description,
            String.join(" ", jvm),
            settings.jar().getFileName(),
            String.join(" ", flags)));
    try (WebhookProcess webhook =
        WebhookProcess.start(settings.jar(), jvm, flags, kubeconfig, log)) {
      Measures measures = new Measures(webhook, open, secured);
      prime(http, webhook, workload);
      if (!settings.warmup().isZero()) {
        step(
            workload, http, webhook, secured, measures, settings.rates().get(0), settings.warmup());
      }
      print(LoadTable.header());
      LoadTable.Row last = null;
      LoadTable.Row best = null;
      for (int rate : settings.rates()) {
        last = step(workload, http, webhook, secured, measures, rate, settings.step());
        print(LoadTable.row(last));
        print("          webhook threads: " + last.webhookThreads() + "\n");
        if (!last.holds()) {
          break;
        }
        best = last;
      }
      print(verdict(best, last));
    }
  }

  private LoadTable.Row step(
      LoadWorkload workload,
      HttpClient http,
      WebhookProcess webhook,
      LocalRegistry secured,
      Measures measures,
      int rate,
      Duration length)
      throws Exception {
    int count = (int) Math.max(1, Math.round(rate * (length.toNanos() / 1e9)));
    long perRollout = workload.podsPerRollout();
    long first = (nextPod + perRollout - 1) / perRollout * perRollout;
    long firstRollout = workload.rolloutOf(first);
    long endRollout = workload.rolloutOf(first + count - 1) + 1;
    pushAll(secured, workload.securedImages(firstRollout, endRollout));
    nextPod = first + count;
    Measures.Mark mark = measures.mark();
    StepSamples samples =
        OpenLoop.run(
            http,
            webhook.mutatePods(),
            workload::review,
            first,
            count,
            rate,
            settings.apiTimeout());
    StepSamples.Summary summary = samples.summary();
    if (summary.firstError() != null && summary.heldShare() < 1) {
      print("  first error at " + rate + "/s: " + summary.firstError() + "\n");
    }
    return measures.row(mark, rate, length, summary, endRollout - firstRollout);
  }

  /**
   * A few admissions one after the other before any rate: the first TLS handshakes and the first
   * routing run through cold code, and a burst of them would only measure the JIT.
   */
  private void prime(HttpClient http, WebhookProcess webhook, LoadWorkload workload)
      throws InterruptedException {
    for (int i = 0; i < PRIMING; i++) {
      OpenLoop.run(
          http, webhook.mutatePods(), workload::review, nextPod++, 1, 1, Duration.ofSeconds(10));
    }
  }

  private String verdict(LoadTable.Row best, LoadTable.Row last) {
    StringBuilder text = new StringBuilder();
    if (best == null) {
      text.append("does not hold even the first rate");
    } else {
      text.append(
          String.format(
              Locale.ROOT,
              "holds %.0f admissions/s (p99 %.0f ms)",
              best.offered(),
              best.summary().p99().toNanos() / 1e6));
    }
    if (last != null && !last.holds()) {
      StepSamples.Summary s = last.summary();
      text.append(
          String.format(
              Locale.ROOT,
              "; at %.0f/s only %.1f%% routed in time (%d timeouts, %d errors, %d answered"
                  + " unchanged), webhook CPU %.0f%% of one core, load %.1f",
              last.offered(),
              s.routedShare() * 100,
              s.timeouts(),
              s.errors(),
              s.held() - s.routed(),
              100.0 * last.webhookCpu().toNanos() / last.elapsed().toNanos(),
              last.load()));
    } else {
      text.append("; every offered rate held");
    }
    return text.append('\n').toString();
  }

  private String banner() throws IOException {
    StringBuilder text = new StringBuilder();
    text.append("kuik webhook under load, ").append(Instant.now()).append('\n');
    text.append(
        String.format(
            Locale.ROOT,
            "machine: %d cores (%s), %s memory, %s %s; load average at start %s%n",
            Runtime.getRuntime().availableProcessors(),
            cpuModel(),
            memTotal(),
            System.getProperty("java.vm.name"),
            System.getProperty("java.version"),
            loadAverages()));
    text.append(
        String.format(
            Locale.ROOT,
            "each rate %d s (warm-up %d s, not shown); rollouts of %d pods; %d-byte AdmissionReviews"
                + " of 4 containers; API server timeout %d s; a rate holds when >= %.0f%% of its"
                + " admissions are answered in time with their patch%n",
            settings.step().toSeconds(),
            settings.warmup().toSeconds(),
            settings.podsPerRollout(),
            new LoadWorkload(
                    new LoadWorkload.Hosts(
                        "127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3", "127.0.0.1:4"),
                    LoadWorkload.Scenario.HEALTHY,
                    settings.podsPerRollout())
                .review(0)
                .length,
            settings.apiTimeout().toSeconds(),
            LoadTable.HOLD_SHARE * 100));
    return text.toString();
  }

  private void print(String text) {
    console.print(text);
    console.flush();
    report.append(text);
  }

  private static void arrange(KubernetesClient client, LoadWorkload.Hosts hosts) {
    for (Map.Entry<String, Map<String, String>> namespace : LoadWorkload.namespaces().entrySet()) {
      put(
          client,
          new NamespaceBuilder()
              .withNewMetadata()
              .withName(namespace.getKey())
              .withLabels(namespace.getValue())
              .endMetadata()
              .build());
    }
    String auth =
        Base64.getEncoder()
            .encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
    String config = "{\"auths\":{\"" + hosts.secured() + "\":{\"auth\":\"" + auth + "\"}}}";
    put(
        client,
        new SecretBuilder()
            .withNewMetadata()
            .withName(LoadWorkload.PULL_SECRET)
            .withNamespace(LoadWorkload.INSTALL_NAMESPACE)
            .endMetadata()
            .withType("kubernetes.io/dockerconfigjson")
            .withData(
                Map.of(
                    ".dockerconfigjson",
                    Base64.getEncoder().encodeToString(config.getBytes(StandardCharsets.UTF_8))))
            .build());
    LoadWorkload workload = new LoadWorkload(hosts, LoadWorkload.Scenario.HEALTHY, 1);
    for (String yaml : workload.routingResources()) {
      Class<? extends HasMetadata> kind =
          yaml.contains("kind: ImageMirror") ? ImageMirror.class : ImageAlternative.class;
      put(client, client.getKubernetesSerialization().unmarshal(yaml, kind));
    }
  }

  private static void put(KubernetesClient client, HasMetadata object) {
    client.resource(object).createOr(existing -> existing.update());
  }

  private static void pushFixed(LocalRegistry open, LocalRegistry secured, LoadWorkload workload)
      throws Exception {
    pushAll(open, workload.openImages());
    pushAll(secured, workload.securedImages(0, 0));
  }

  /** Pushes every repository's tags, four repositories at a time. */
  private static void pushAll(LocalRegistry registry, Map<String, List<String>> images)
      throws Exception {
    ExecutorService pushers = Executors.newFixedThreadPool(4);
    try {
      List<Future<String>> pushed = new ArrayList<>();
      for (Map.Entry<String, List<String>> image : images.entrySet()) {
        pushed.add(pushers.submit(() -> registry.pushTags(image.getKey(), image.getValue())));
      }
      for (Future<String> push : pushed) {
        push.get();
      }
    } finally {
      pushers.shutdownNow();
    }
  }

  /** Fails unless nothing listens there: the workload's originals must refuse connections. */
  private static void requireRefused(String host, int port, String what) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 1000);
      throw new IOException(
          host + ":" + port + " accepts connections, but " + what + " must be refused there");
    } catch (ConnectException refused) {
      // as needed
    }
  }

  private static Path runnableJar(Path given) throws IOException {
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

  private static Path dir(Path parent, String name) throws IOException {
    return Files.createDirectories(parent.resolve(name));
  }

  static String loadAverages() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException unknown) {
      return "n/a";
    }
  }

  static double loadAverage() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).trim().split(" ")[0]);
    } catch (IOException | NumberFormatException unknown) {
      return -1;
    }
  }

  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException unknown) {
      // not Linux
    }
    return "unknown CPU";
  }

  private static String memTotal() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          long kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
          return String.format(Locale.ROOT, "%.1f GiB", kib / 1024.0 / 1024.0);
        }
      }
    } catch (IOException | NumberFormatException unknown) {
      // not Linux
    }
    return "unknown";
  }
}
