package io.kuik.webhook;

import static org.awaitility.Awaitility.await;

import io.kuik.cli.Main;
import io.kuik.cli.WebhookCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import picocli.CommandLine;

/**
 * The real {@code kuik webhook} command, run in this JVM through {@link Main}'s command line on a
 * thread of its own, against whatever cluster the {@code kubeconfig} system property names, on free
 * ports. {@link #stop()} ends it as SIGTERM would and returns its exit code.
 */
final class RunningWebhook implements AutoCloseable {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final WebhookCommand command;
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private final int port;
  private final int healthPort;
  private final HttpClient https;

  RunningWebhook(SSLContext trusting, String... flags) throws IOException {
    port = LocalRegistry.freePort();
    healthPort = LocalRegistry.freePort();
    https = HttpClient.newBuilder().sslContext(trusting).build();
    CommandLine commandLine = Main.commandLine();
    command = (WebhookCommand) commandLine.getSubcommands().get("webhook").getCommand();
    List<String> args =
        new ArrayList<>(List.of("webhook", "--port=" + port, "--health-port=" + healthPort));
    args.addAll(List.of(flags));
    Thread thread =
        new Thread(
            () -> exit.complete(commandLine.execute(args.toArray(String[]::new))),
            "webhook-under-test-" + port);
    thread.setDaemon(true);
    thread.start();
    await("the health port answers")
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .until(() -> exit.isDone() || health("/healthz").statusCode() == 200);
  }

  int port() {
    return port;
  }

  int healthPort() {
    return healthPort;
  }

  boolean isRunning() {
    return !exit.isDone();
  }

  /** A GET on the plain health port: /healthz, /readyz, /metrics. */
  HttpResponse<String> health(String path) {
    return send(
        HTTP, HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort + path)).GET());
  }

  /** A POST of {@code body} to the HTTPS port, as the API server sends an AdmissionReview. */
  HttpResponse<String> post(String path, String body) {
    return send(
        https,
        HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  /** Ends the command as SIGTERM would and returns its exit code. */
  int stop() {
    command.stop();
    try {
      return exit.get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("the webhook did not stop within 30 s", e);
    }
  }

  @Override
  public void close() {
    if (isRunning()) {
      stop();
    }
  }

  private static HttpResponse<String> send(HttpClient client, HttpRequest.Builder request) {
    try {
      return client.send(
          request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException unreachable) {
      throw new UncheckedIOException(unreachable);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(interrupted);
    }
  }
}
