package io.kuik.kube;

import java.util.concurrent.CompletableFuture;

/** A process's end, awaited on a thread of its own, so that a test bounds how long it waits. */
public final class Exits {

  private Exits() {}

  /** Completes with the reason {@code runtime} ends for, once it has one. */
  public static CompletableFuture<ExitReason> of(ProcessRuntime runtime) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return runtime.awaitExit();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
          }
        });
  }
}
