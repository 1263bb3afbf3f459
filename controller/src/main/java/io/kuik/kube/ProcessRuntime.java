package io.kuik.kube;

/**
 * A started component process (the syncer or the webhook): it runs until asked to exit or it fails.
 */
public interface ProcessRuntime extends AutoCloseable {

  /** Blocks until the process has a reason to exit. */
  ExitReason awaitExit() throws InterruptedException;

  /** Asks the process to exit for {@code reason}; idempotent, never blocks. */
  void requestExit(ExitReason reason);

  /** Stops everything the process started; idempotent, never throws. */
  @Override
  void close();
}
