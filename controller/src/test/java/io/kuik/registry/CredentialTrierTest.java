package io.kuik.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.kuik.model.CredentialTrial;
import io.kuik.model.RegistryCredential;
import io.kuik.model.TrialVerdict;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Trials run off the caller's thread, and answer once even when the trier is closed. */
class CredentialTrierTest {

  private HttpServer registry;
  private final CountDownLatch release = new CountDownLatch(1);

  @BeforeEach
  void start() throws Exception {
    registry = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    registry.createContext(
        "/v2/",
        exchange -> {
          try {
            release.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    registry.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
    registry.start();
  }

  @AfterEach
  void stop() {
    release.countDown();
    registry.stop(0);
  }

  private CredentialTrial trial() {
    return new CredentialTrial(
        "127.0.0.1:" + registry.getAddress().getPort(),
        RegistryCredential.basic("alice", "s3cret"),
        new TreeSet<>(List.of("acme/app")));
  }

  @Test
  void aTrialReturnsAtOnceAndIsAnsweredLaterOnATrialThread() throws Exception {
    try (CredentialTrier trier = new CredentialTrier(Duration.ofSeconds(5), Set.of())) {
      CompletableFuture<TrialVerdict> verdict = new CompletableFuture<>();
      CompletableFuture<String> thread = new CompletableFuture<>();

      trier.tryCredential(
          trial(),
          answer -> {
            thread.complete(Thread.currentThread().getName());
            verdict.complete(answer);
          });

      assertTrue(!verdict.isDone(), "the registry has not answered yet: nothing came back");
      release.countDown();
      assertEquals(TrialVerdict.Outcome.ACCEPTED, verdict.get(10, TimeUnit.SECONDS).outcome());
      assertNotEquals(Thread.currentThread().getName(), thread.get());
      assertTrue(thread.get().startsWith("kuik-credential-trial-"), thread.get());
    }
  }

  @Test
  void aClosedTrierAnswersAtOnceThatNothingWasSent() {
    CredentialTrier trier = new CredentialTrier(Duration.ofSeconds(5), Set.of());
    trier.close();
    CompletableFuture<TrialVerdict> verdict = new CompletableFuture<>();

    trier.tryCredential(trial(), verdict::complete);

    assertEquals(TrialVerdict.Outcome.UNREACHABLE, verdict.getNow(null).outcome());
    assertTrue(verdict.getNow(null).answer().contains("stopping"));
  }
}
