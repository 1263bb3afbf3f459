package io.kuik.kube.syncer;

import io.kuik.model.CredentialProvider;
import io.kuik.model.Durations;
import io.kuik.model.MintResult;
import io.kuik.model.ProviderExchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs credential provider plugins as the kubelet does (kubernetes {@code
 * pkg/credentialprovider/plugin/plugin.go}, {@code ExecPlugin}): the executable {@code
 * <dir>/<name>} with the provider's arguments, the syncer's environment plus the provider's, a
 * {@code CredentialProviderRequest} on stdin, the response read from stdout
 * (docs/behaviour.md#provider-credentials). Off the core's thread, a few at a time; each run is
 * killed, with every process it started, past the timeout or past {@code maxOutput} bytes on
 * stdout. What the plugin prints is never logged: stdout holds the credential, and stderr is not
 * shown either (a plugin may print a token there), only whether it wrote there.
 */
public final class ProviderPlugins implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(ProviderPlugins.class.getName());

  /** The kubelet's own catch-all timeout of a plugin run. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(1);

  /** Plugins run at once; more wait their turn. */
  public static final int DEFAULT_CONCURRENCY = 2;

  /**
   * More than any response carries (a Secret holds 1 MiB at most): past it the plugin is killed.
   */
  public static final long DEFAULT_MAX_OUTPUT = 1024 * 1024;

  private final Path directory;
  private final Duration timeout;
  private final long maxOutput;
  private final ExecutorService runs;
  private final ExecutorService pipes;

  public ProviderPlugins(Path directory, Duration timeout, int concurrency, long maxOutput) {
    this.directory = directory;
    this.timeout = timeout;
    this.maxOutput = maxOutput;
    AtomicInteger count = new AtomicInteger();
    this.runs =
        new ThreadPoolExecutor(
            concurrency,
            concurrency,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            task -> daemon(task, "kuik-provider-plugin-" + count.incrementAndGet()));
    ((ThreadPoolExecutor) runs).allowCoreThreadTimeOut(true);
    AtomicInteger pipeCount = new AtomicInteger();
    this.pipes =
        Executors.newCachedThreadPool(
            task -> daemon(task, "kuik-provider-pipe-" + pipeCount.incrementAndGet()));
  }

  /**
   * Runs the plugin of {@code provider} for {@code image} on a plugin thread and hands the result
   * to {@code answered} there, exactly once; once closed, answers at once that it did not run.
   * Never blocks, never throws.
   */
  public void mint(CredentialProvider provider, String image, Consumer<MintResult> answered) {
    try {
      runs.execute(() -> answered.accept(guarded(provider, image)));
    } catch (RejectedExecutionException closed) {
      answered.accept(
          new MintResult.Failed(MintResult.Failure.NOT_RUN, "the syncer is stopping: not run"));
    }
  }

  private MintResult guarded(CredentialProvider provider, String image) {
    try {
      MintResult result = run(provider, image);
      if (result instanceof MintResult.Failed failed) {
        LOG.warning(
            "provider "
                + provider.name()
                + " could not mint for "
                + image
                + ": "
                + failed.message());
      } else if (result instanceof MintResult.Minted minted) {
        LOG.fine(
            () ->
                "provider "
                    + provider.name()
                    + " minted for "
                    + image
                    + ": cacheKeyType "
                    + minted.response().cacheKeyType()
                    + ", cacheDuration "
                    + (minted.response().cacheDuration() == null
                        ? "not given"
                        : Durations.text(minted.response().cacheDuration())));
      }
      return result;
    } catch (RuntimeException bug) {
      LOG.log(Level.SEVERE, "running provider " + provider.name() + " failed", bug);
      return new MintResult.Failed(
          MintResult.Failure.INVALID,
          "running the plugin failed (" + bug.getClass().getName() + ")");
    }
  }

  /** One run, blocking for as long as it takes (at most the timeout and a little more). */
  MintResult run(CredentialProvider provider, String image) {
    Path executable = directory.resolve(provider.name());
    if (!Files.isRegularFile(executable) || !Files.isExecutable(executable)) {
      return new MintResult.Failed(
          MintResult.Failure.NOT_FOUND,
          "no executable plugin "
              + executable
              + ": put the provider's binary there (the chart's"
              + " providerPlugins.image or providerPlugins.initContainer)");
    }
    List<String> command = new ArrayList<>();
    command.add(executable.toString());
    command.addAll(provider.args());
    ProcessBuilder builder = new ProcessBuilder(command);
    Map<String, String> env = builder.environment();
    provider.env().forEach(variable -> env.put(variable.name(), variable.value()));
    Process process;
    try {
      process = builder.start();
    } catch (IOException cannotRun) {
      return new MintResult.Failed(
          MintResult.Failure.NOT_FOUND, "the plugin " + executable + " could not be started");
    }
    AtomicBoolean tooLarge = new AtomicBoolean();
    AtomicLong stderrBytes = new AtomicLong();
    Future<byte[]> stdout = pipes.submit(() -> readCapped(process, tooLarge));
    Future<?> stderr = pipes.submit(() -> stderrBytes.set(drain(process.getErrorStream())));
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.write(ProviderExchange.request(provider.apiVersion(), image));
    } catch (IOException closedEarly) {
      // The plugin did not read its request: its exit status or output says what happened.
    }
    boolean exited;
    try {
      exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException stopping) {
      kill(process);
      Thread.currentThread().interrupt();
      return new MintResult.Failed(MintResult.Failure.NOT_RUN, "the syncer is stopping");
    }
    if (!exited) {
      kill(process);
      return new MintResult.Failed(
          tooLarge.get() ? MintResult.Failure.TOO_LARGE : MintResult.Failure.TIMED_OUT,
          tooLarge.get()
              ? tooLargeMessage()
              : "the plugin did not answer within " + Durations.text(timeout) + ": killed");
    }
    byte[] out = outcome(stdout);
    awaitQuietly(stderr);
    if (tooLarge.get()) {
      return new MintResult.Failed(MintResult.Failure.TOO_LARGE, tooLargeMessage());
    }
    if (process.exitValue() != 0) {
      return new MintResult.Failed(
          MintResult.Failure.EXITED,
          "the plugin exited with status "
              + process.exitValue()
              + (stderrBytes.get() > 0
                  ? " (what it wrote to stderr is not shown: it may hold a secret)"
                  : ""));
    }
    try {
      return new MintResult.Minted(ProviderExchange.response(out, provider.apiVersion()));
    } catch (ProviderExchange.InvalidResponse invalid) {
      return new MintResult.Failed(MintResult.Failure.INVALID, invalid.getMessage());
    }
  }

  private String tooLargeMessage() {
    return "the plugin wrote more than " + maxOutput + " bytes to stdout: killed";
  }

  /** Stdout up to the cap; past it, the plugin and its children are killed. */
  private byte[] readCapped(Process process, AtomicBoolean tooLarge) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try (InputStream in = process.getInputStream()) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (out.size() + n > maxOutput) {
          tooLarge.set(true);
          kill(process);
          return new byte[0];
        }
        out.write(buffer, 0, n);
      }
    }
    return out.toByteArray();
  }

  /** Reads a stream to its end and forgets it: only how many bytes came is kept. */
  private static long drain(InputStream in) {
    long total = 0;
    byte[] buffer = new byte[8192];
    try (in) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        total += n;
      }
    } catch (IOException closed) {
      // killed: what came is what counts
    }
    return total;
  }

  private byte[] outcome(Future<byte[]> stdout) {
    try {
      return stdout.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception unreadable) {
      return new byte[0];
    }
  }

  private void awaitQuietly(Future<?> future) {
    try {
      future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception ignored) {
      future.cancel(true);
    }
  }

  /**
   * Kills the plugin and every process it started (a shell's children hold its pipes open): the
   * plugin first, then what it had started just before. Its children killed first, a shell would
   * start its next command meanwhile, a process no list held, left to run as an orphan.
   */
  private static void kill(Process process) {
    List<ProcessHandle> started = process.descendants().toList();
    process.destroyForcibly();
    started.forEach(ProcessHandle::destroyForcibly);
  }

  @Override
  public void close() {
    runs.shutdownNow();
    pipes.shutdownNow();
  }

  private static Thread daemon(Runnable task, String name) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    return thread;
  }
}
