package io.kuik.scale;

import io.kuik.image.ChartJvmOptions;
import io.kuik.kube.JvmHeap;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code kuik syncer} as its own process, {@code java <chart JVM options> -jar <jar>
 * syncer <the chart's default flags>}, with {@code KUBECONFIG} naming the mock API server: its
 * readiness, its heap after a full GC (from the JDK's {@code jcmd}) and its RSS. {@link #close()}
 * sends SIGTERM, then kills it after 30 s.
 */
final class ForkedSyncer implements AutoCloseable {

  /**
   * What the chart's container gives the JVM: {@code syncer.jvmOptions} of chart/values.yaml (the
   * chart passes it as {@code JAVA_TOOL_OPTIONS}), after {@code MaxRAM} standing in for the chart's
   * 512Mi memory limit ({@code syncer.resources}) that the container JVM would read from its cgroup
   * ({@link ChartJvmOptions}).
   */
  static final List<String> CHART_JVM_OPTIONS = ChartJvmOptions.of("syncer");

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final Process process;
  private final int healthPort;
  private final Path log;

  private ForkedSyncer(Process process, int healthPort, Path log) {
    this.process = process;
    this.healthPort = healthPort;
    this.log = log;
  }

  /**
   * The chart's default syncer flags (chart/values.yaml), one replica without a Lease, with the
   * gates released (pullSecretFirst.enabled: the webhook's part, gating, is the harness's).
   */
  static List<String> chartFlags(String resyncPeriod) {
    return List.of(
        "--cluster-resource-namespace=" + ScaleWorkload.INSTALL_NAMESPACE,
        "--grace-period=15m",
        "--resync-period=" + resyncPeriod,
        "--debounce=500ms",
        "--namespaces-by-default=true",
        "--api-qps=20",
        "--api-burst=50",
        "--leader-elect=false",
        // Pull secret first: the probes are gated, and their wait is measured.
        "--release-gates=true",
        "--log-format=json",
        "--log-level=info");
  }

  static ForkedSyncer start(Path jar, List<String> flags, Path kubeconfig, Path log)
      throws IOException {
    return start(jar, "syncer", CHART_JVM_OPTIONS, flags, kubeconfig, log);
  }

  /**
   * Any {@code kuik <subcommand>} of the jar, with these JVM options (the gate-flood's webhook).
   */
  static ForkedSyncer start(
      Path jar,
      String subcommand,
      List<String> jvmOptions,
      List<String> flags,
      Path kubeconfig,
      Path log)
      throws IOException {
    int healthPort = freePort();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-jar", jar.toString(), subcommand));
    command.addAll(flags);
    command.add("--health-port=" + healthPort);
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("KUBECONFIG", kubeconfig.toString());
    builder.environment().remove("JAVA_TOOL_OPTIONS");
    return new ForkedSyncer(builder.start(), healthPort, log);
  }

  boolean alive() {
    return process.isAlive();
  }

  /** Whether {@code /readyz} answers 200 (informers synced). */
  boolean ready() {
    try {
      return HTTP.send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort + "/readyz"))
                      .timeout(Duration.ofSeconds(5))
                      .build(),
                  HttpResponse.BodyHandlers.discarding())
              .statusCode()
          == 200;
    } catch (IOException notYet) {
      return false;
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The text of {@code /metrics}; empty when it does not answer. */
  String metrics() {
    try {
      HttpResponse<String> answer =
          HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort + "/metrics"))
                  .timeout(Duration.ofSeconds(10))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return answer.statusCode() == 200 ? answer.body() : "";
    } catch (IOException unanswered) {
      return "";
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  /**
   * Heap in use right after a full GC, in MiB: {@code jcmd <pid> GC.run}, then the used sizes of
   * {@code jcmd <pid> GC.heap_info}'s generations; negative when {@code jcmd} is missing or the
   * process is gone.
   */
  double heapAfterFullGcMiB() throws IOException, InterruptedException {
    return process.isAlive() ? JvmHeap.afterFullGcMiB(process.pid()) : -1;
  }

  /**
   * {@code jcmd <pid> VM.native_memory summary} (what the JVM committed, by category) when the
   * options turn native memory tracking on ({@code
   * -Dkuik.jvm.extra=-XX:NativeMemoryTracking=summary}); empty otherwise.
   */
  String nativeMemory() throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    boolean tracked =
        CHART_JVM_OPTIONS.stream().anyMatch(o -> o.startsWith("-XX:NativeMemoryTracking="));
    if (!tracked || !Files.isExecutable(jcmd) || !process.isAlive()) {
      return "";
    }
    return JvmHeap.run(process.pid(), "VM.native_memory summary");
  }

  /** The resident set size in MiB, from {@code /proc}; negative where there is none. */
  double rssMiB() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
        }
      }
    } catch (IOException | NumberFormatException unknown) {
      // not Linux, or the process is gone
    }
    return -1;
  }

  Path log() {
    return log;
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }
  }

  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
