package io.kuik.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.kube.ExitReason;
import io.kuik.kube.ProcessRuntime;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How both commands end: SIGTERM (what {@link Signals} turns into {@link UntilExit#stopAll()}) at
 * any moment, before the process runs or while it does, is a clean stop with exit code 0; a lost
 * lease or a failed start is 1; the process is closed whichever way it ends. {@code
 * ProcessExitCodesTest} checks the same of real processes.
 */
class UntilExitTest {

  private final ExecutorService threads = Executors.newCachedThreadPool();

  /** A process that runs until asked to exit, and counts its closes. */
  static final class FakeRuntime implements ProcessRuntime {
    final CompletableFuture<ExitReason> exit = new CompletableFuture<>();
    final AtomicInteger closes = new AtomicInteger();
    final CompletableFuture<Void> awaiting = new CompletableFuture<>();

    @Override
    public ExitReason awaitExit() throws InterruptedException {
      awaiting.complete(null);
      try {
        return exit.get();
      } catch (ExecutionException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public void requestExit(ExitReason reason) {
      exit.complete(reason);
    }

    @Override
    public void close() {
      closes.incrementAndGet();
    }
  }

  @AfterEach
  void forget() {
    UntilExit.forgetStopAll();
    threads.shutdownNow();
  }

  private Future<Integer> run(UntilExit<FakeRuntime> until, FakeRuntime runtime) {
    return threads.submit(() -> until.run(runtime));
  }

  @Test
  void aStopRequestedWhileTheProcessStartedEndsItCleanlyAsSoonAsItRuns() throws Exception {
    UntilExit<FakeRuntime> until = new UntilExit<>();
    FakeRuntime runtime = new FakeRuntime();
    until.stop(); // nothing runs yet: the command is still starting its process

    assertEquals(0, run(until, runtime).get(10, TimeUnit.SECONDS));
    assertSame(ExitReason.SHUTDOWN, runtime.exit.getNow(null));
    assertEquals(1, runtime.closes.get(), "closed once it ended");
    assertNull(until.running());
  }

  @Test
  void aSigtermBeforeTheProcessRunsEndsItCleanlyAsSoonAsItRuns() throws Exception {
    UntilExit.stopAll(); // the signal came during the start, before any command ran

    UntilExit<FakeRuntime> until = new UntilExit<>();
    FakeRuntime runtime = new FakeRuntime();
    assertEquals(0, run(until, runtime).get(10, TimeUnit.SECONDS));
    assertSame(ExitReason.SHUTDOWN, runtime.exit.getNow(null));
    assertEquals(1, runtime.closes.get());
  }

  @Test
  void aSigtermWhileProcessesRunEndsEachCleanly() throws Exception {
    UntilExit<FakeRuntime> first = new UntilExit<>();
    UntilExit<FakeRuntime> second = new UntilExit<>();
    FakeRuntime one = new FakeRuntime();
    FakeRuntime two = new FakeRuntime();
    Future<Integer> a = run(first, one);
    Future<Integer> b = run(second, two);
    one.awaiting.get(10, TimeUnit.SECONDS);
    two.awaiting.get(10, TimeUnit.SECONDS);
    assertSame(one, first.running());

    UntilExit.stopAll();

    assertEquals(0, a.get(10, TimeUnit.SECONDS));
    assertEquals(0, b.get(10, TimeUnit.SECONDS));
    assertEquals(1, one.closes.get());
    assertEquals(1, two.closes.get());
  }

  @Test
  void aStopWhileItRunsEndsThatProcessOnly() throws Exception {
    UntilExit<FakeRuntime> stopped = new UntilExit<>();
    UntilExit<FakeRuntime> other = new UntilExit<>();
    FakeRuntime one = new FakeRuntime();
    FakeRuntime two = new FakeRuntime();
    Future<Integer> a = run(stopped, one);
    Future<Integer> b = run(other, two);
    one.awaiting.get(10, TimeUnit.SECONDS);
    two.awaiting.get(10, TimeUnit.SECONDS);

    stopped.stop();

    assertEquals(0, a.get(10, TimeUnit.SECONDS));
    assertTrue(!b.isDone() && !two.exit.isDone(), "the other process runs on");
    two.requestExit(ExitReason.SHUTDOWN);
    assertEquals(0, b.get(10, TimeUnit.SECONDS));
  }

  @Test
  void aLostLeaseOrAFailedStartExitsOneAndClosesTheProcess() throws Exception {
    for (ExitReason reason : new ExitReason[] {ExitReason.LOST_LEASE, ExitReason.STARTUP_FAILED}) {
      UntilExit<FakeRuntime> until = new UntilExit<>();
      FakeRuntime runtime = new FakeRuntime();
      Future<Integer> code = run(until, runtime);
      runtime.awaiting.get(10, TimeUnit.SECONDS);

      runtime.requestExit(reason);

      assertEquals(1, code.get(10, TimeUnit.SECONDS), reason.name());
      assertEquals(1, runtime.closes.get(), reason.name());
      assertNull(until.running(), reason.name());
    }
  }

  @Test
  void eachReasonSaysWhyAndItsExitCode() {
    assertEquals("stopped, exit code 0", ExitReason.SHUTDOWN.describe());
    assertEquals("the lease was lost, exit code 1", ExitReason.LOST_LEASE.describe());
    assertEquals("the start failed, exit code 1", ExitReason.STARTUP_FAILED.describe());
  }
}
