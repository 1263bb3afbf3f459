package io.kuik.kube.webhook;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kuik.kube.PodGates;
import io.kuik.kube.PolicyWatch;
import io.kuik.model.WriteBounds;
import io.kuik.webhook.GateBound;
import io.kuik.webhook.SyncerLease;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Pull secret first, the webhook process's part (docs/decisions/0052-pull-secret-first.md): reads
 * the syncer's Lease every {@link #LEASE_PERIOD} for {@link SyncerLease}, which the admission asks
 * whether to gate; watches the rewritten pods no node runs yet, keeping a slim record of each
 * ({@link WatchedPods}), and every {@link #TICK} removes the gate of those past the bound ({@link
 * GateBound}) with a Warning Event on each. One thread of its own keeps the bound; the releases go
 * out on {@link #RELEASES_IN_FLIGHT} threads of their own, taken in turn from each namespace, and
 * the Events on one more, so that neither reading the Lease, nor recording Events, nor another
 * namespace's flood of due pods holds one back
 * (docs/decisions/0062-gate-releases-paced-concurrent-fair.md). It gates and patches no pod while
 * the admission policy that bounds those patches, or its binding, is missing ({@link PolicyWatch}).
 */
final class GateKeeper implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(GateKeeper.class.getName());

  static final Duration LEASE_PERIOD = Duration.ofSeconds(2);
  static final Duration TICK = Duration.ofMillis(200);
  static final Duration RETRY = Duration.ofSeconds(5);

  /** Releases sent and not yet answered, at most, each on a thread of its own. */
  static final int RELEASES_IN_FLIGHT = 16;

  /** Warning Events waiting to be recorded, at most; beyond, one is dropped (and logged). */
  static final int EVENTS_QUEUED = 1_000;

  private final KubernetesClient client;
  private final String namespace;
  private final String leaseName;
  private final SyncerLease lease = new SyncerLease();
  private final GateBound bound;
  private final PodGates gates;
  private final PolicyWatch policy;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(daemons("kuik-gate-keeper"));

  /** Reads the Lease, so that a slow API server delays no tick of the bound. */
  private final ScheduledExecutorService leaseReader =
      Executors.newSingleThreadScheduledExecutor(daemons("kuik-lease-reader"));

  private final ExecutorService releasers =
      Executors.newFixedThreadPool(RELEASES_IN_FLIGHT, daemons("kuik-gate-release"));

  /**
   * Records the Warning Events, one at a time, apart from the releases: under a flood they must not
   * halve the releases' pace. A full queue drops the Event, never the release.
   */
  private final ThreadPoolExecutor events =
      new ThreadPoolExecutor(
          1,
          1,
          30,
          TimeUnit.SECONDS,
          new ArrayBlockingQueue<>(EVENTS_QUEUED),
          daemons("kuik-gate-events"),
          (dropped, pool) -> LOG.fine("a PullSecretNotReady Event dropped: too many queued"));

  /** Releases in flight; the keeper's thread only. */
  private int inFlight;

  private volatile int gated;
  private volatile long released;
  private SharedIndexInformer<Pod> pods;

  GateKeeper(
      KubernetesClient client,
      String namespace,
      String leaseName,
      Duration maxWait,
      WriteBounds.Policy podGates) {
    this.client = client;
    this.namespace = namespace;
    this.leaseName = leaseName;
    this.bound = new GateBound(maxWait, RETRY);
    this.gates = new PodGates(client);
    this.policy =
        new PolicyWatch(client, List.of(podGates), "the webhook gates and patches", b -> {});
  }

  /**
   * Whether to gate a pod admitted now: the syncer's Lease is fresh, and the policy that bounds the
   * patch that will remove the gate is in place. Any thread.
   */
  boolean gating() {
    return policy.bounds().inPlace() && lease.fresh(Instant.now());
  }

  long gatedPods() {
    return gated;
  }

  long releasedByTheBound() {
    return released;
  }

  void start() {
    policy.start();
    leaseReader.scheduleWithFixedDelay(
        this::readLease, 0, LEASE_PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    pods = WatchedPods.informer(client);
    pods.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(Pod pod) {
            changed(pod, false);
          }

          @Override
          public void onUpdate(Pod before, Pod pod) {
            changed(pod, false);
          }

          @Override
          public void onDelete(Pod pod, boolean unknown) {
            changed(pod, true);
          }
        });
    pods.start();
    thread.scheduleWithFixedDelay(
        this::tick, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void readLease() {
    try {
      Lease found = client.leases().inNamespace(namespace).withName(leaseName).get();
      if (found == null
          || found.getSpec() == null
          || found.getSpec().getRenewTime() == null
          || found.getSpec().getLeaseDurationSeconds() == null) {
        lease.observed(null);
        return;
      }
      lease.observed(
          new SyncerLease.Observed(
              found.getSpec().getRenewTime().toInstant(),
              Duration.ofSeconds(found.getSpec().getLeaseDurationSeconds())));
    } catch (RuntimeException unreadable) {
      lease.observed(null);
      LOG.log(Level.FINE, "the syncer's Lease could not be read: {0}", unreadable.toString());
    }
  }

  /** On the informer's thread: the record goes to the keeper's, the pod object nowhere. */
  private void changed(Pod pod, boolean deleted) {
    WatchedPods.Watched record = WatchedPods.record(pod);
    GateBound.GatedPod gatedPod = deleted ? null : record.gated();
    try {
      thread.execute(() -> bound.podChanged(record.namespace(), record.name(), gatedPod));
    } catch (RejectedExecutionException closing) {
      // closing
    }
  }

  /** The due pods, as many as may fly, each released on a thread of its own. */
  private void tick() {
    if (!policy.bounds().inPlace()) {
      return; // no patch while nothing bounds it: the gated pods wait for the policy
    }
    try {
      for (GateBound.GatedPod pod : bound.due(Instant.now(), RELEASES_IN_FLIGHT - inFlight)) {
        inFlight++;
        releasers.execute(
            () -> {
              PodGates.Result result =
                  gates.release(pod.namespace(), pod.name(), pod.uid(), pod.index());
              thread.execute(() -> answered(pod, result));
            });
      }
      gated = bound.gated();
      released = bound.released();
    } catch (RejectedExecutionException closing) {
      // closing
    } catch (RuntimeException bug) {
      LOG.log(Level.SEVERE, "the gate keeper's tick failed", bug);
    }
  }

  private void answered(GateBound.GatedPod pod, PodGates.Result result) {
    inFlight--;
    if (bound.answered(pod, result.code(), Instant.now())) {
      LOG.log(
          Level.WARNING,
          "pod {0}/{1}: pull secret not in place after {2}, gate removed by the bound",
          new Object[] {pod.namespace(), pod.name(), bound.maxWait()});
      events.execute(() -> warn(pod));
    } else if (!result.released() && result.code() != 422 && result.code() != 404) {
      LOG.log(
          Level.WARNING,
          "pod {0}/{1}: removing its gate was refused ({2} {3}), retry in {4}",
          new Object[] {pod.namespace(), pod.name(), result.code(), result.reason(), RETRY});
    }
    if (inFlight < RELEASES_IN_FLIGHT) {
      tick(); // the next due pods go now, not at the next tick
    }
  }

  private void warn(GateBound.GatedPod pod) {
    String now =
        DateTimeFormatter.ISO_INSTANT.format(
            Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    try {
      client
          .v1()
          .events()
          .inNamespace(pod.namespace())
          .resource(
              new EventBuilder()
                  .withNewMetadata()
                  .withGenerateName(pod.name() + ".")
                  .withNamespace(pod.namespace())
                  .endMetadata()
                  .withInvolvedObject(
                      new ObjectReferenceBuilder()
                          .withApiVersion("v1")
                          .withKind("Pod")
                          .withNamespace(pod.namespace())
                          .withName(pod.name())
                          .withUid(pod.uid())
                          .build())
                  .withType("Warning")
                  .withReason(GateBound.REASON)
                  .withMessage(bound.message())
                  .withNewSource()
                  .withComponent("kuik-webhook")
                  .endSource()
                  .withFirstTimestamp(now)
                  .withLastTimestamp(now)
                  .withCount(1)
                  .build())
          .create();
    } catch (KubernetesClientException dropped) {
      LOG.log(Level.FINE, "Event on pod {0} dropped: {1}", new Object[] {pod.name(), dropped});
    }
  }

  @Override
  public void close() {
    policy.close();
    if (pods != null) {
      pods.stop();
    }
    leaseReader.shutdownNow();
    thread.shutdownNow();
    releasers.shutdownNow();
    events.shutdownNow();
  }

  /** Daemon threads named {@code prefix-1}, {@code prefix-2}, … */
  private static ThreadFactory daemons(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
