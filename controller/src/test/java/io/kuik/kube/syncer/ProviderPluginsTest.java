package io.kuik.kube.syncer;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.CredentialProvider;
import io.kuik.model.MintResult;
import io.kuik.model.ProviderExchange;
import io.kuik.model.RegistryCredential;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exec protocol against real processes: the plugins the tests ship (src/test/resources/plugins)
 * run by the syncer's plugin runner as the kubelet runs them, one outcome each, and nothing a
 * plugin prints in any message or log line.
 */
class ProviderPluginsTest {

  static final String IMAGE = "123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/app";

  @TempDir Path directory;
  private ProviderPlugins plugins;
  private final List<LogRecord> logged = new ArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          synchronized (logged) {
            logged.add(record);
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @BeforeEach
  void ship() {
    TestPlugins.into(directory);
    plugins = new ProviderPlugins(directory, Duration.ofSeconds(2), 2, 64 * 1024);
    Logger.getLogger("").addHandler(capture);
  }

  @AfterEach
  void close() {
    plugins.close();
    Logger.getLogger("").removeHandler(capture);
  }

  private static CredentialProvider provider(String name, String... env) {
    List<CredentialProvider.EnvVar> variables = new ArrayList<>();
    for (int i = 0; i < env.length; i += 2) {
      variables.add(new CredentialProvider.EnvVar(env[i], env[i + 1]));
    }
    return new CredentialProvider(
        name,
        List.of("*.dkr.ecr.*.amazonaws.com"),
        Duration.ofHours(12),
        CredentialProvider.PROTOCOL_V1,
        List.of("get-credentials"),
        variables);
  }

  /** Through {@link ProviderPlugins#mint}, as the syncer runs it: off the caller's thread. */
  private MintResult mint(CredentialProvider provider) throws Exception {
    CompletableFuture<MintResult> result = new CompletableFuture<>();
    plugins.mint(provider, IMAGE, result::complete);
    return result.get(30, TimeUnit.SECONDS);
  }

  private MintResult.Failed failed(String name, MintResult.Failure failure) throws Exception {
    return failed(provider(name), failure);
  }

  private MintResult.Failed failed(CredentialProvider provider, MintResult.Failure failure)
      throws Exception {
    MintResult result = mint(provider);
    MintResult.Failed failed = assertInstanceOf(MintResult.Failed.class, result, result::toString);
    assertEquals(failure, failed.failure(), failed.message());
    for (String printed : List.of("SECRET-IN-STDERR", "SECRET-IN-STDOUT")) {
      assertFalse(failed.message().contains(printed), failed.message());
      synchronized (logged) {
        for (LogRecord record : logged) {
          assertFalse(String.valueOf(record.getMessage()).contains(printed), record.getMessage());
        }
      }
    }
    return failed;
  }

  @Test
  void aWellBehavedPluginMintsWithItsArgumentsAndTheProvidersEnvironment() throws Exception {
    MintResult result = mint(provider("well-behaved", "KUIK_TEST_TOKEN", "t0ken-from-env"));

    ProviderExchange.Response response =
        assertInstanceOf(MintResult.Minted.class, result, result::toString).response();
    assertEquals(ProviderExchange.CacheKeyType.Registry, response.cacheKeyType());
    assertEquals(Duration.ofHours(12), response.cacheDuration());
    assertEquals(
        RegistryCredential.basic("AWS", "t0ken-from-env"),
        response.auth().get("123456789012.dkr.ecr.eu-west-1.amazonaws.com"));
  }

  /** A sleep only this test's plugin runs: its argument is the test's own. */
  private static String uniqueSleep() {
    return "600." + ThreadLocalRandom.current().nextInt(100_000, 1_000_000);
  }

  /**
   * Whether a process sleeps {@code sleep} seconds, wherever it is: a child orphaned by its killed
   * parent is no descendant of this JVM any more.
   */
  private static boolean sleeping(String sleep) {
    return ProcessHandle.allProcesses()
        .anyMatch(p -> p.info().arguments().map(a -> List.of(a).contains(sleep)).orElse(false));
  }

  private static void awaitGone(String sleep) {
    // SIGKILL is delivered and the process reaped asynchronously: gone within seconds.
    await("no sleep left behind").atMost(Duration.ofSeconds(10)).until(() -> !sleeping(sleep));
  }

  /** Another runner than the test's default, closed with it. */
  private ProviderPlugins plugins(Duration timeout, long maxOutput) {
    plugins.close();
    plugins = new ProviderPlugins(directory, timeout, 1, maxOutput);
    return plugins;
  }

  @Test
  void aSlowPluginIsKilledAtTheTimeoutWithTheProcessesItStarted() throws Exception {
    String sleep = uniqueSleep();
    long started = System.nanoTime();
    MintResult.Failed failed =
        failed(provider("slow", "KUIK_TEST_SLEEP", sleep), MintResult.Failure.TIMED_OUT);

    assertEquals("the plugin did not answer within 2s: killed", failed.message());
    assertTrue(
        Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofSeconds(20)) < 0,
        "the run ends at the timeout, not when its child does");
    awaitGone(sleep);
  }

  @Test
  void closingWhileAPluginRunsKillsItAndAnswersThatItDidNotRun() throws Exception {
    String sleep = uniqueSleep();
    ProviderPlugins runner = plugins(Duration.ofSeconds(60), 64 * 1024);
    CompletableFuture<MintResult> result = new CompletableFuture<>();
    runner.mint(provider("slow", "KUIK_TEST_SLEEP", sleep), IMAGE, result::complete);
    await("the plugin runs").atMost(Duration.ofSeconds(10)).until(() -> sleeping(sleep));

    runner.close();

    MintResult.Failed failed =
        assertInstanceOf(MintResult.Failed.class, result.get(10, TimeUnit.SECONDS));
    assertEquals(MintResult.Failure.NOT_RUN, failed.failure());
    assertEquals("the syncer is stopping", failed.message());
    awaitGone(sleep);
  }

  @Test
  void aPluginThatWritesPastTheCapAndHangsOnIsKilledAtOnce() throws Exception {
    String sleep = uniqueSleep();
    plugins(Duration.ofSeconds(30), 64 * 1024);
    long started = System.nanoTime();

    MintResult.Failed failed =
        failed(provider("bloated", "KUIK_TEST_SLEEP", sleep), MintResult.Failure.TOO_LARGE);

    assertEquals("the plugin wrote more than 65536 bytes to stdout: killed", failed.message());
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    assertTrue(took.compareTo(Duration.ofSeconds(15)) < 0, "not at the 30 s timeout: " + took);
    awaitGone(sleep);
  }

  @Test
  void anAnswerOfExactlyTheCapIsReadAndOneByteMoreIsTooLarge() throws Exception {
    Process direct =
        new ProcessBuilder(directory.resolve("well-behaved").toString(), "get-credentials").start();
    try (OutputStream stdin = direct.getOutputStream()) {
      stdin.write(ProviderExchange.request(CredentialProvider.PROTOCOL_V1, IMAGE));
    }
    int size = direct.getInputStream().readAllBytes().length;
    assertEquals(0, direct.waitFor());

    plugins(Duration.ofSeconds(10), size);
    assertInstanceOf(MintResult.Minted.class, mint(provider("well-behaved")));
    plugins(Duration.ofSeconds(10), size - 1);
    failed("well-behaved", MintResult.Failure.TOO_LARGE);
  }

  @Test
  void aPluginTheSystemCannotStartIsNotFound() throws Exception {
    MintResult.Failed failed = failed("unstartable", MintResult.Failure.NOT_FOUND);
    assertEquals(
        "the plugin " + directory.resolve("unstartable") + " could not be started",
        failed.message());
  }

  @Test
  void aProviderNameThatIsNoPathIsAFailedRunNotAThrow() throws Exception {
    MintResult.Failed failed = failed("bad\0name", MintResult.Failure.INVALID);
    assertEquals(
        "running the plugin failed (java.nio.file.InvalidPathException)", failed.message());
  }

  @Test
  void aMintIsLoggedAtFineWithItsCacheKeyTypeAndDurationAndNoCredential() throws Exception {
    Logger logger = Logger.getLogger(ProviderPlugins.class.getName());
    Level level = logger.getLevel();
    logger.setLevel(Level.FINE);
    try {
      mint(provider("well-behaved", "KUIK_TEST_TOKEN", "SECRET-IN-STDOUT"));
      failed("crashing", MintResult.Failure.EXITED);
    } finally {
      logger.setLevel(level);
    }

    List<String> lines;
    synchronized (logged) {
      lines =
          logged.stream()
              .filter(r -> r.getLoggerName().equals(ProviderPlugins.class.getName()))
              .map(r -> r.getLevel() + " " + r.getMessage())
              .toList();
    }
    assertEquals(
        List.of(
            "FINE provider well-behaved minted for "
                + IMAGE
                + ": cacheKeyType Registry, cacheDuration 12h",
            "WARNING provider crashing could not mint for "
                + IMAGE
                + ": the plugin exited with status 3 (what it wrote to stderr is not shown: it may"
                + " hold a secret)"),
        lines);
  }

  @Test
  void aCrashingPluginIsItsExitStatusAndItsStderrIsNeverShown() throws Exception {
    MintResult.Failed failed = failed("crashing", MintResult.Failure.EXITED);
    assertEquals(
        "the plugin exited with status 3 (what it wrote to stderr is not shown: it may hold a"
            + " secret)",
        failed.message());
    MintResult.Failed quiet =
        failed(provider("crashing", "KUIK_TEST_QUIET", "1"), MintResult.Failure.EXITED);
    assertEquals("the plugin exited with status 3", quiet.message(), "nothing on stderr");
  }

  @Test
  void aPluginAnsweringInAnotherVersionIsRefusedAsTheKubeletRefusesIt() throws Exception {
    MintResult.Failed failed = failed("lying", MintResult.Failure.INVALID);
    assertTrue(failed.message().contains("apiVersion"), failed.message());
  }

  @Test
  void gigabytesOnStdoutAreCutAtTheLimitAndThePluginKilled() throws Exception {
    long started = System.nanoTime();
    MintResult.Failed failed = failed("gigabytes", MintResult.Failure.TOO_LARGE);
    assertTrue(failed.message().contains("more than 65536 bytes"), failed.message());
    assertTrue(Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofSeconds(2)) < 0);
  }

  @Test
  void garbageIsNoResponse() throws Exception {
    failed("garbage", MintResult.Failure.INVALID);
  }

  @Test
  void aMissingPluginSaysWhereItWasLookedFor() throws Exception {
    MintResult.Failed failed = failed("ecr-credential-provider", MintResult.Failure.NOT_FOUND);
    assertTrue(failed.message().contains(directory.toString()), failed.message());
    Files.writeString(directory.resolve("not-executable"), "#!/bin/sh\n");
    failed("not-executable", MintResult.Failure.NOT_FOUND);
  }

  @Test
  void atMostTheConcurrencyRunsAtOnceAndTheOthersWait() throws Exception {
    // Four slow runs, two at a time, each killed at the 2 s timeout: the last ends after 4 s.
    long started = System.nanoTime();
    List<CompletableFuture<MintResult>> results = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      CompletableFuture<MintResult> result = new CompletableFuture<>();
      plugins.mint(provider("slow"), IMAGE, result::complete);
      results.add(result);
    }
    for (CompletableFuture<MintResult> result : results) {
      assertInstanceOf(MintResult.Failed.class, result.get(30, TimeUnit.SECONDS));
    }
    assertTrue(
        Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofMillis(3900)) > 0,
        "two at a time");
  }
}
