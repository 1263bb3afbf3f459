package io.kuik.load;

import io.kuik.image.ChartJvmOptions;
import io.kuik.webhook.LocalRegistry;
import java.io.IOException;
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
 * The real {@code kuik webhook} as its own process, from the runnable jar, with the JVM options the
 * image gives it and the flags the chart passes: {@code /readyz}, {@code /metrics}, its CPU time,
 * RSS and heap. {@link #close()} sends SIGTERM, then kills it after 15 s.
 */
final class WebhookProcess implements AutoCloseable {

  /**
   * What the chart's container gives the JVM: {@code webhook.jvmOptions} of chart/values.yaml,
   * after {@code MaxRAM} standing in for the chart's 512Mi memory limit that the container JVM
   * would read from its cgroup ({@link ChartJvmOptions}).
   */
  static final List<String> CHART_JVM_OPTIONS = ChartJvmOptions.of("webhook");

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final Process process;
  private final int port;
  private final int healthPort;
  private final Path log;
  private HeapSampler heap;

  private WebhookProcess(Process process, int port, int healthPort, Path log) {
    this.process = process;
    this.port = port;
    this.healthPort = healthPort;
    this.log = log;
  }

  /**
   * Starts {@code java <jvmOptions> -jar <jar> webhook <flags>} with {@code KUBECONFIG} set, its
   * output in {@code log}, and waits until {@code /readyz} answers 200.
   */
  static WebhookProcess start(
      Path jar, List<String> jvmOptions, List<String> flags, Path kubeconfig, Path log)
      throws IOException, InterruptedException {
    int port = LocalRegistry.freePort();
    int healthPort = LocalRegistry.freePort();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-jar", jar.toString(), "webhook"));
    command.addAll(List.of("--port=" + port, "--health-port=" + healthPort));
    command.addAll(flags);
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("KUBECONFIG", kubeconfig.toString());
    builder.environment().remove("JAVA_TOOL_OPTIONS");
    Process process = builder.start();
    WebhookProcess webhook = new WebhookProcess(process, port, healthPort, log);
    try {
      webhook.awaitReady(Duration.ofSeconds(60));
      // jstat attaches through the perf data file the JVM writes once it runs.
      webhook.heap = HeapSampler.of(process.pid());
      return webhook;
    } catch (IOException | InterruptedException | RuntimeException failed) {
      webhook.close();
      throw failed;
    }
  }

  URI mutatePods() {
    return URI.create("https://127.0.0.1:" + port + "/mutate-pods");
  }

  long pid() {
    return process.pid();
  }

  HeapSampler heap() {
    return heap;
  }

  /** The text of {@code /metrics} on the health port; empty when it does not answer. */
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

  /** CPU time the process has used so far, user and system. */
  Duration cpu() {
    return cpuOf(process.toHandle());
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

  static Duration cpuOf(ProcessHandle handle) {
    return handle.info().totalCpuDuration().orElse(Duration.ZERO);
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(15, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }
    if (heap != null) {
      heap.close();
    }
  }

  private void awaitReady(Duration patience) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + patience.toNanos();
    URI ready = URI.create("http://127.0.0.1:" + healthPort + "/readyz");
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("the webhook exited " + process.exitValue() + "; see " + log);
      }
      try {
        HttpResponse<Void> answer =
            HTTP.send(
                HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(2)).build(),
                HttpResponse.BodyHandlers.discarding());
        if (answer.statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // still starting
      }
      Thread.sleep(100);
    }
    throw new IOException("the webhook was not ready within " + patience + "; see " + log);
  }
}
