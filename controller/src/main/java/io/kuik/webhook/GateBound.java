package io.kuik.webhook;

import io.kuik.model.PullSecretGate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The bound on the pull-secret gate (docs/decisions/0052-pull-secret-first.md): a pod still gated
 * {@link #maxWait} after its creation is released anyway, by the webhook's process and not the
 * syncer's, so that a syncer that is down strands no pod. Pure: the driver tells it of every gated
 * pod its informer shows and of those that went, asks it which are {@link #due} and when the next
 * one is, carries out the releases and hands each answer back. A released pod is reported with a
 * Warning Event; a release that does not apply (the syncer released it first, or the pod is another
 * one now) is not.
 *
 * <p>Fair across namespaces (docs/decisions/0062-gate-releases-paced-concurrent-fair.md): when more
 * pods are due than the driver may release at once, each namespace's oldest goes first, one
 * namespace after the other, so that a tenant's flood of gated pods in one namespace delays another
 * namespace's pod by one release at most. Not thread-safe: one caller at a time.
 */
public final class GateBound {

  /** The Event's reason on a pod released by the bound. */
  public static final String REASON = "PullSecretNotReady";

  /** A pod that carries the gate, as the informer shows it. */
  public record GatedPod(String namespace, String name, String uid, Instant created, int index) {
    public GatedPod {
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(uid, "uid");
      Objects.requireNonNull(created, "created");
    }

    String key() {
      return namespace + "/" + name;
    }
  }

  private final Duration maxWait;
  private final Duration retry;
  private final Map<String, GatedPod> gated = new HashMap<>();
  private final Map<String, Instant> notBefore = new HashMap<>();
  private long released;

  /**
   * @param maxWait how long after its creation a pod may stay gated
   * @param retry how long after a refused release it is tried again
   */
  public GateBound(Duration maxWait, Duration retry) {
    if (maxWait.isNegative() || maxWait.isZero()) {
      throw new IllegalArgumentException("the gate's bound must be positive, got " + maxWait);
    }
    this.maxWait = maxWait;
    this.retry = Objects.requireNonNull(retry, "retry");
  }

  public Duration maxWait() {
    return maxWait;
  }

  /** A pod {@code namespace/name} now carries the gate ({@code pod}), or does not (null). */
  public void podChanged(String namespace, String name, GatedPod pod) {
    String key = namespace + "/" + name;
    GatedPod before = pod == null ? gated.remove(key) : gated.put(key, pod);
    if (pod == null || (before != null && !before.uid().equals(pod.uid()))) {
      notBefore.remove(key);
    }
  }

  /** The pods past the bound at {@code now}, to release; each is in flight until answered. */
  public List<GatedPod> due(Instant now) {
    return due(now, Integer.MAX_VALUE);
  }

  /**
   * At most {@code most} of the pods past the bound at {@code now}, to release, taken in turn from
   * each namespace (oldest first in each, the namespace of the oldest first); each is in flight
   * until answered, and those left wait for the next call.
   */
  public List<GatedPod> due(Instant now, int most) {
    Map<String, List<GatedPod>> byNamespace = new HashMap<>();
    for (GatedPod pod : gated.values()) {
      if (!deadline(pod).isAfter(now)) {
        byNamespace.computeIfAbsent(pod.namespace(), ns -> new ArrayList<>()).add(pod);
      }
    }
    Comparator<GatedPod> oldest =
        Comparator.comparing(GatedPod::created).thenComparing(GatedPod::key);
    List<List<GatedPod>> queues = new ArrayList<>(byNamespace.values());
    queues.forEach(queue -> queue.sort(oldest));
    queues.sort(Comparator.comparing(queue -> queue.get(0), oldest));
    List<GatedPod> due = new ArrayList<>();
    for (int round = 0; due.size() < most; round++) {
      boolean any = false;
      for (List<GatedPod> queue : queues) {
        if (round < queue.size() && due.size() < most) {
          due.add(queue.get(round));
          any = true;
        }
      }
      if (!any) {
        break;
      }
    }
    due.forEach(pod -> notBefore.put(pod.key(), Instant.MAX)); // in flight
    return due;
  }

  /** When the next pod is due; empty when none is gated (or every due one is in flight). */
  public Optional<Instant> next() {
    return gated.values().stream()
        .map(this::deadline)
        .filter(at -> !at.equals(Instant.MAX))
        .min(Instant::compareTo);
  }

  /**
   * The answer to a release of {@code pod}: whether to record the Warning Event (only when this
   * release removed the gate). A release refused for another reason than the pod having changed is
   * tried again after {@code retry}.
   */
  public boolean answered(GatedPod pod, int code, Instant now) {
    if (code == 200) {
      released++;
      gated.remove(pod.key(), pod);
      notBefore.remove(pod.key());
      return true;
    }
    if (code == 404 || code == 422) {
      gated.remove(pod.key(), pod); // gone, or another pod, or no gate at that place any more
      notBefore.remove(pod.key());
      return false;
    }
    if (gated.get(pod.key()) == pod) {
      notBefore.put(pod.key(), now.plus(retry));
    }
    return false;
  }

  /** The message of the Warning Event on a pod the bound released. */
  public String message() {
    return "the pod's pull secret was not in place "
        + maxWait.toSeconds()
        + "s after its creation (is the secret-syncer running?): its scheduling gate "
        + PullSecretGate.NAME
        + " was removed so that it starts anyway, and its first pull may fail and be retried";
  }

  /** Pods the bound released so far. */
  public long released() {
    return released;
  }

  /** Gated pods known. */
  public int gated() {
    return gated.size();
  }

  private Instant deadline(GatedPod pod) {
    Instant bound = pod.created().plus(maxWait);
    Instant retryAt = notBefore.get(pod.key());
    return retryAt == null || retryAt.isBefore(bound) ? bound : retryAt;
  }
}
