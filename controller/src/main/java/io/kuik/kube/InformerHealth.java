package io.kuik.kube;

import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import java.util.logging.Logger;

/**
 * Whether a process's informers still serve. fabric8 stops an informer for good on some failures
 * (an event it cannot read); it never sees a change again, so the process's health and readiness
 * fail and Kubernetes restarts it, and the new process lists afresh.
 */
public final class InformerHealth {

  private static final Logger LOG = Logger.getLogger(InformerHealth.class.getName());

  private InformerHealth() {}

  /** Whether no informer has stopped since it started. */
  public static boolean noneStopped(List<? extends SharedIndexInformer<?>> informers) {
    return informers.stream()
        .noneMatch(informer -> informer.stopped().toCompletableFuture().isDone());
  }

  /**
   * Logs, once, an informer that stops after it synced; one that never synced fails the start,
   * which says so itself.
   */
  public static void reportStop(SharedIndexInformer<?> informer, String what) {
    informer
        .stopped()
        .whenComplete(
            (ok, failure) -> {
              if (failure != null && informer.hasSynced()) {
                LOG.severe(
                    "the informer of "
                        + what
                        + " stopped ("
                        + failure.getClass().getSimpleName()
                        + ": "
                        + failure.getMessage()
                        + "); /healthz and /readyz fail from now on, so that Kubernetes restarts"
                        + " the process");
              }
            });
  }
}
