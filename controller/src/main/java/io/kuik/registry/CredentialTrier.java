package io.kuik.registry;

import io.kuik.model.CredentialTrial;
import io.kuik.model.TrialVerdict;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Runs {@link TokenFlow} trials off the caller's thread, on a few threads of its own, so that the
 * syncer's core never waits for a registry: {@link #tryCredential} returns at once and the answer
 * comes back later, from a trial thread. There are as many trials as registries and credentials,
 * and each is tried at most once per resync period, so a small pool and an unbounded queue do.
 */
public final class CredentialTrier implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(CredentialTrier.class.getName());

  /** Trials at once; more wait their turn. */
  static final int THREADS = 2;

  private final TokenFlow flow;
  private final ExecutorService workers;

  /**
   * Trials through {@link RegistryHttp}, the one policy of requests that carry a credential, each
   * request ending within {@code timeout}.
   */
  public CredentialTrier(Duration timeout, Set<String> insecureRegistries) {
    this(new TokenFlow(new RegistryHttp(timeout, insecureRegistries)));
  }

  CredentialTrier(TokenFlow flow) {
    this.flow = flow;
    AtomicInteger threads = new AtomicInteger();
    this.workers =
        new ThreadPoolExecutor(
            THREADS,
            THREADS,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            task -> {
              Thread thread =
                  new Thread(task, "kuik-credential-trial-" + threads.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    ((ThreadPoolExecutor) workers).allowCoreThreadTimeOut(true);
  }

  /**
   * Tries the credential on a trial thread and hands the verdict to {@code answered} there, exactly
   * once; once closed, answers at once that nothing was sent. Never blocks, never throws.
   */
  public void tryCredential(CredentialTrial trial, Consumer<TrialVerdict> answered) {
    tryOnATrialThread(() -> tryNow(trial), answered);
  }

  /**
   * Runs {@code trial} (a {@link #tryNow}, through a gate that may refuse it) on a trial thread and
   * hands its verdict to {@code answered} there, exactly once; once closed, answers at once that
   * nothing was sent. Never blocks, never throws.
   */
  public void tryOnATrialThread(Supplier<TrialVerdict> trial, Consumer<TrialVerdict> answered) {
    try {
      workers.execute(() -> answered.accept(trial.get()));
    } catch (RejectedExecutionException closed) {
      answered.accept(TrialVerdict.unreachable("the syncer is stopping: the trial was not sent"));
    }
  }

  /** The token flow with the credential, on the caller's thread; never throws. */
  public TrialVerdict tryNow(CredentialTrial trial) {
    try {
      TrialVerdict verdict = flow.tryPull(trial);
      LOG.log(
          Level.DEBUG,
          "credential trial registry={0} paths={1} outcome={2}",
          trial.registry(),
          trial.paths(),
          verdict.outcome());
      return verdict;
    } catch (RuntimeException bug) {
      LOG.log(Level.ERROR, "credential trial on " + trial.registry() + " failed", bug);
      return TrialVerdict.unreachable(
          trial.registry() + ": the trial failed (" + bug.getClass().getSimpleName() + ")");
    }
  }

  @Override
  public void close() {
    workers.shutdownNow();
  }
}
