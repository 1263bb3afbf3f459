package io.kuik.kube;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
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
 * {@code java io.kuik.cli.Main <args>} in a JVM of its own, on this test's class path, as the image
 * runs it: so that signals and exit codes are the real process's. Its standard error goes to a file
 * for the test to read.
 */
public final class ForkedKuik implements AutoCloseable {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final Process process;
  private final Path stderr;
  private final int healthPort;

  private ForkedKuik(Process process, Path stderr, int healthPort) {
    this.process = process;
    this.stderr = stderr;
    this.healthPort = healthPort;
  }

  /**
   * Starts {@code kuik <args> --health-port=<free port>}, with {@code kubeconfig} naming the file
   * (null: none).
   */
  public static ForkedKuik start(Path kubeconfig, String... args) {
    return start(kubeconfig, freePort(), args);
  }

  /** Starts {@code kuik <args> --health-port=<healthPort>}. */
  public static ForkedKuik start(Path kubeconfig, int healthPort, String... args) {
    return start(List.of(), kubeconfig, healthPort, args);
  }

  /**
   * Starts {@code kuik <args> --health-port=<free port>} in a JVM started with {@code jvmOptions}
   * (e.g. the chart's, {@code io.kuik.image.ChartJvmOptions}).
   */
  public static ForkedKuik start(List<String> jvmOptions, Path kubeconfig, String... args) {
    return start(jvmOptions, kubeconfig, freePort(), args);
  }

  private static ForkedKuik start(
      List<String> jvmOptions, Path kubeconfig, int healthPort, String... args) {
    int port = healthPort;
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    if (kubeconfig != null) {
      command.add("-Dkubeconfig=" + kubeconfig);
    }
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.kuik.cli.Main"));
    command.addAll(List.of(args));
    command.add("--health-port=" + port);
    try {
      // A file, not a pipe: lines still in a pipe when the process exits can be lost to a reader.
      Path stderr = Files.createTempFile("kuik-forked", ".stderr");
      stderr.toFile().deleteOnExit();
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(stderr.toFile());
      builder.environment().remove("KUBECONFIG");
      return new ForkedKuik(builder.start(), stderr, port);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits until {@code /readyz} answers 200, or the process ended. */
  public ForkedKuik awaitReady() {
    await("the forked process is ready")
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptions()
        .until(() -> !process.isAlive() || get("/readyz") == 200);
    return this;
  }

  public int get(String path) throws IOException, InterruptedException {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort + path))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  /** The body of a GET on the health port, e.g. {@code /metrics}. */
  public String body(String path) throws IOException, InterruptedException {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort + path))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /** Heap in use right after a full GC, in MiB ({@link JvmHeap}). */
  public double heapAfterFullGcMiB() throws IOException, InterruptedException {
    return JvmHeap.afterFullGcMiB(process.pid());
  }

  /** Sends SIGTERM (what {@code Process.destroy} sends on Linux) and returns the exit code. */
  public int terminate() throws InterruptedException {
    process.destroy();
    return awaitExit(Duration.ofSeconds(60));
  }

  /** Waits for the process to end by itself and returns its exit code. */
  public int awaitExit(Duration atMost) throws InterruptedException {
    if (!process.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("still running after " + atMost + "; stderr:\n" + stderr());
    }
    return process.exitValue();
  }

  /** Everything the process wrote to standard error so far (all of it once it ended). */
  public String stderr() {
    try {
      return Files.readString(stderr);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
    try {
      Files.deleteIfExists(stderr);
    } catch (IOException ignored) {
      // a temporary file
    }
  }

  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
