package io.kuik.kube;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kuik.syncer.RepeatedFailures;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * Whether a process's informers still serve, and what they meet on the way. fabric8 stops an
 * informer for good on some failures (an event it cannot read); it never sees a change again, so
 * the process's health and readiness fail and Kubernetes restarts it, and the new process lists
 * afresh. A list or watch that fails after the start is retried by fabric8 and told here as one
 * story per outage ({@link RepeatedFailures}): fabric8's own line per failure and retry is left out
 * at info (the CLI's log setup), and an informer that watches again counts as recovered, checked
 * every few seconds.
 */
public final class InformerHealth {

  private static final Logger LOG = Logger.getLogger(InformerHealth.class.getName());

  private static final RepeatedFailures FAILURES =
      new RepeatedFailures(
          System.getLogger(InformerHealth.class.getName()), "lists and watches", "informers");

  /** Every informer of the process that has not stopped, by what it informs of. */
  private static final Map<SharedIndexInformer<?>, String> INFORMERS = new ConcurrentHashMap<>();

  /** The informers whose last list or watch failed, or whose watch is down. */
  private static final Map<SharedIndexInformer<?>, String> FAILING = new ConcurrentHashMap<>();

  private static final long CHECK_SECONDS = 5;

  private static final ScheduledExecutorService CHECK =
      Executors.newSingleThreadScheduledExecutor(
          task -> {
            Thread thread = new Thread(task, "kuik-informer-health");
            thread.setDaemon(true);
            return thread;
          });

  static {
    CHECK.scheduleWithFixedDelay(
        InformerHealth::checkRecovered, CHECK_SECONDS, CHECK_SECONDS, TimeUnit.SECONDS);
  }

  private InformerHealth() {}

  /** Whether no informer has stopped since it started. */
  public static boolean noneStopped(List<? extends SharedIndexInformer<?>> informers) {
    return informers.stream()
        .noneMatch(informer -> informer.stopped().toCompletableFuture().isDone());
  }

  /**
   * Logs, once, an informer that stops after it synced; one that never synced fails the start,
   * which says so itself. Its failed lists and watches after the start are told with every other
   * informer's of the process. Called before the informer starts.
   */
  public static void reportStop(SharedIndexInformer<?> informer, String what) {
    INFORMERS.put(informer, what);
    informer.exceptionHandler(
        (started, failure) -> {
          if (started) {
            FAILING.put(informer, what);
            FAILURES.failed(what, answer(failure), RootCause.of(failure), Instant.now(), null);
          }
          // fabric8's own rule: retry once started, unless the watch itself gave up.
          return started && !(failure instanceof WatcherException);
        });
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

  /**
   * A synced informer whose watch is down fails (fabric8 reconnects it on its own, telling no
   * handler); a failing one that watches again has recovered; a stopped one is gone.
   */
  private static void checkRecovered() {
    Instant now = Instant.now();
    INFORMERS.forEach(
        (informer, what) -> {
          boolean watching = informer.isWatching();
          if (informer.stopped().toCompletableFuture().isDone()) {
            INFORMERS.remove(informer);
            if (FAILING.remove(informer) != null) {
              FAILURES.forget(what, now);
            }
          } else if (watching && FAILING.remove(informer) != null) {
            FAILURES.succeeded(what, now);
          } else if (!watching && informer.hasSynced() && FAILING.put(informer, what) == null) {
            FAILURES.failed(what, "watch down", "fabric8 reconnects it with backoff", now, null);
          }
        });
    FAILURES.tick(now);
  }

  /** What the API server answered, as a log line names it: its code and reason, or none. */
  static String answer(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof KubernetesClientException e && e.getCode() > 0) {
        String reason = e.getStatus() == null ? null : e.getStatus().getReason();
        return e.getCode() + (reason == null || reason.isEmpty() ? "" : " " + reason);
      }
    }
    return "no answer from the API server";
  }
}
