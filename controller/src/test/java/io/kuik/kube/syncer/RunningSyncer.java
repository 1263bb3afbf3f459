package io.kuik.kube.syncer;

import static org.awaitility.Awaitility.await;

import io.kuik.cli.Main;
import io.kuik.cli.SyncerCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/**
 * The real {@code kuik syncer} command, run in this JVM through {@link Main}'s command line on a
 * thread of its own, against whatever cluster the {@code kubeconfig} system property names. {@link
 * #stop()} ends it as SIGTERM would and returns its exit code.
 */
final class RunningSyncer implements AutoCloseable {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final SyncerCommand command;
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private final int healthPort = freePort();

  RunningSyncer(String... flags) {
    CommandLine commandLine = Main.commandLine();
    command = (SyncerCommand) commandLine.getSubcommands().get("syncer").getCommand();
    List<String> args = new ArrayList<>(List.of("syncer", "--health-port=" + healthPort));
    args.addAll(List.of(flags));
    Thread thread =
        new Thread(
            () -> exit.complete(commandLine.execute(args.toArray(String[]::new))),
            "syncer-under-test-" + healthPort);
    thread.setDaemon(true);
    thread.start();
    await("the health port answers")
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .until(() -> exit.isDone() || get("/healthz").statusCode() == 200);
  }

  int healthPort() {
    return healthPort;
  }

  /** Whether this instance holds the lease and writes. */
  boolean isWriting() {
    var runtime = command.runtime();
    return runtime != null && runtime.isWriting();
  }

  boolean isRunning() {
    return !exit.isDone();
  }

  HttpResponse<String> get(String path) {
    try {
      return HTTP.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort + path))
              .timeout(Duration.ofSeconds(5))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException unreachable) {
      throw new UncheckedIOException(unreachable);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(interrupted);
    }
  }

  /** Ends the command as SIGTERM would and returns its exit code. */
  int stop() {
    command.stop();
    try {
      return exit.get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("the syncer did not stop within 30 s", e);
    }
  }

  @Override
  public void close() {
    if (isRunning()) {
      stop();
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
