package io.kuik.syncer;

import io.kuik.model.ObservedNamespace;
import io.kuik.model.RewrittenPod;
import io.kuik.ports.InformerView;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The rewritten pods that wait on the pull-secret gate (docs/decisions/0052-pull-secret-first.md),
 * and for each, the pairs whose Secrets must hold what it needs before it may be scheduled: those
 * of every resource that rewrote one of its containers, in its namespace. A pair is <em>in
 * sync</em> when a reconcile finds that the content this process last applied to it, and had taken,
 * is the content the pair must hold now (with this pod among the pods it is decided for), or that
 * there is nothing it will write; a pod whose pairs are all in sync is released with one {@link
 * Effect.ReleaseGate}. A refused release is tried again after a backoff; a release that no longer
 * applies (the pod was re-created, or its gate is gone) waits for the informer's news of the pod.
 *
 * <p>A release is a pod write: it pays a token of the one write budget and takes one of the release
 * slots the {@link Pacer} has (as many as applies may fly), so that several go at once and none
 * exceeds {@code --api-qps}. Pods whose Secrets are ready wait in one queue per namespace, served
 * in turn (docs/decisions/0062-gate-releases-paced-concurrent-fair.md): a tenant's ten thousand
 * gated pods in one namespace hold another namespace's pod back by one release at most.
 */
final class Gates {

  private static final System.Logger LOG = System.getLogger(Gates.class.getName());

  /** One gated pod: what the informer shows of it, the pairs it waits on, and its release. */
  private static final class Waiting {
    RewrittenPod pod;
    final Set<Pair> pending;
    final Instant since;
    boolean inFlight;

    /** The refusals in a row so far, null before any. */
    Retry retry;

    /** A refused release is owed again at {@code retry.notBefore()}. */
    boolean owed;

    /** Its Secrets are ready: it waits in its namespace's queue for a token and a slot. */
    boolean queued;

    Waiting(RewrittenPod pod, Set<Pair> pending, Instant since) {
      this.pod = pod;
      this.pending = pending;
      this.since = since;
    }
  }

  private final SyncerSettings settings;
  private final InformerView view;
  private final SyncerObserver observer;
  private final Map<String, Waiting> waiting = new HashMap<>();

  /**
   * When each pod whose release is in flight was first seen gated: the informer's news of the pod
   * without its gate may come before the answer, and forget the pod.
   */
  private final Map<String, Instant> releasing = new HashMap<>();

  /** The gated pods of each namespace, by key: a pair's sync looks at its namespace only. */
  private final Map<String, Set<String>> byNamespace = new HashMap<>();

  /**
   * The pods ready to release, a queue per namespace; the namespaces in turn (the one served goes
   * to the end of the line).
   */
  private final Map<String, Deque<String>> ready = new LinkedHashMap<>();

  private final Pacer pacer;

  /** Releases sent and not yet answered: at most as many as applies may fly. */
  private int releasesInFlight;

  Gates(SyncerSettings settings, InformerView view, SyncerObserver observer, Pacer pacer) {
    this.settings = settings;
    this.view = view;
    this.observer = observer;
    this.pacer = pacer;
  }

  /**
   * The pods a previous incarnation left gated: each waits on its pairs, and is released once this
   * process applied them.
   */
  void started(Instant now, Effects out) {
    if (!settings.releasesGates()) {
      return;
    }
    for (ObservedNamespace ns : view.namespaces()) {
      if (settings.targeting().serves(ns.name(), ns.labels())) {
        for (RewrittenPod pod : view.pods(ns.name())) {
          if (pod.gated()) {
            podChanged(pod, key(pod), now, out);
          }
        }
      }
    }
  }

  /**
   * The informer's news of a rewritten pod. Another instance serves the pods of a namespace this
   * one does not: theirs to release, so such a pod is forgotten here. Nothing is released while the
   * writes are held: the end of the hold releases what is due.
   */
  void podNoticed(RewrittenPod before, RewrittenPod after, Instant now, Effects out) {
    RewrittenPod any = after != null ? after : before;
    podChanged(served(any) ? after : null, key(any), now, out);
  }

  private boolean served(RewrittenPod pod) {
    return view.namespace(pod.namespace())
        .filter(ns -> settings.targeting().serves(ns.name(), ns.labels()))
        .isPresent();
  }

  private static String key(RewrittenPod pod) {
    return pod.namespace() + "/" + pod.name();
  }

  /**
   * A rewritten pod was added, changed or went: a gated one waits on its pairs from now (a pod the
   * core already waits for keeps its progress, with the gate where the informer shows it now); any
   * other is forgotten. A pod whose pairs were all in sync, but whose release did not apply, is
   * released again with what the informer shows now.
   */
  private void podChanged(RewrittenPod after, String key, Instant now, Effects out) {
    if (after == null || !after.gated() || !settings.releasesGates() || after.uid() == null) {
      forget(key);
      return;
    }
    Waiting known = waiting.get(key);
    if (known != null && known.pod.uid().equals(after.uid())) {
      known.pod = after;
      if (known.pending.isEmpty() && !known.inFlight && !known.owed) {
        release(known, out, now);
      }
      return;
    }
    forget(key);
    Set<Pair> pairs = new LinkedHashSet<>();
    RewrittenPods.rewriters(after).forEach(id -> pairs.add(new Pair(id, after.namespace())));
    Waiting pod = new Waiting(after, pairs, now);
    waiting.put(key, pod);
    byNamespace.computeIfAbsent(after.namespace(), ns -> new LinkedHashSet<>()).add(key);
    if (pairs.isEmpty()) {
      release(pod, out, now); // nothing it pulls with comes from kuik
    }
  }

  /** Whether a gated pod waits on {@code pair}. */
  boolean waitsOn(Pair pair) {
    Set<String> keys = byNamespace.get(pair.namespace());
    if (keys == null) {
      return false;
    }
    for (String key : keys) {
      if (waiting.get(key).pending.contains(pair)) {
        return true;
      }
    }
    return false;
  }

  /** The pair's Secret holds what it must hold now: the pods that waited on it alone go. */
  void inSync(Pair pair, Instant now, Effects out) {
    Set<String> keys = byNamespace.get(pair.namespace());
    if (keys == null) {
      return;
    }
    for (String key : List.copyOf(keys)) {
      Waiting pod = waiting.get(key);
      if (pod.pending.remove(pair) && pod.pending.isEmpty() && !pod.inFlight && !pod.owed) {
        release(pod, out, now);
      }
    }
  }

  /** The API server answered a release. */
  void answered(Effect.ReleaseGate sent, Answer answer, Instant now) {
    releasesInFlight = Math.max(0, releasesInFlight - 1);
    String key = sent.namespace() + "/" + sent.name();
    Instant since = releasing.remove(key + "/" + sent.uid());
    if (answer instanceof Answer.Applied && since != null) {
      observer.gateReleased(Duration.between(since, now));
    }
    Waiting pod = waiting.get(key);
    if (pod == null || !pod.pod.uid().equals(sent.uid())) {
      return; // forgotten meanwhile: deleted, released by the bound, or its gate seen gone
    }
    pod.inFlight = false;
    if (answer instanceof Answer.Applied) {
      forget(key);
      return;
    }
    Answer.Refused refused = (Answer.Refused) answer;
    if (refused.code() == 404) {
      forget(key);
      return;
    }
    if (refused.code() == 422) {
      // The patch's tests failed: another pod under this name, or the gate moved or went. The
      // informer's news of the pod says which, and podChanged releases it again if need be.
      return;
    }
    pod.retry = Retry.after(pod.retry, now, settings.retryBase(), settings.retryCap());
    pod.owed = true;
    LOG.log(
        Level.WARNING,
        "release of the gate of pod {0} refused ({1} {2}), retry in {3}: {4}",
        key,
        refused.code(),
        refused.reason(),
        Duration.between(now, pod.retry.notBefore()),
        refused.message());
  }

  /** The releases whose retry is due at {@code now}. */
  void retryDue(Instant now, Effects out) {
    for (Waiting pod : List.copyOf(waiting.values())) {
      if (pod.owed && !pod.retry.notBefore().isAfter(now)) {
        release(pod, out, now);
      }
    }
  }

  /**
   * The earliest a release may go: now when one is queued and a slot is free (the pacer adds the
   * wait for a token), else the earliest retry owed; empty when none.
   */
  Optional<Instant> nextRelease(Instant now) {
    if (!ready.isEmpty() && releasesInFlight < settings.maxInFlight()) {
      return Optional.of(now);
    }
    Instant next = null;
    for (Waiting pod : waiting.values()) {
      if (pod.owed) {
        Instant at = pod.retry.notBefore();
        next = next == null || at.isBefore(next) ? at : next;
      }
    }
    return Optional.ofNullable(next);
  }

  /**
   * Sends the queued releases the pacer lets go now, one namespace after the other: each pays a
   * write token and takes a release slot until its answer.
   */
  void send(Instant now, Effects out) {
    while (!out.holding()
        && releasesInFlight < settings.maxInFlight()
        && !pacer.eventWorkWaiting(now)) {
      Waiting pod = nextReady();
      if (pod == null || !pacer.takeToken(now)) {
        return;
      }
      Deque<String> queue = ready.remove(pod.pod.namespace());
      queue.poll();
      if (!queue.isEmpty()) {
        ready.put(pod.pod.namespace(), queue); // to the end of the line
      }
      pod.queued = false;
      pod.inFlight = true;
      releasesInFlight++;
      RewrittenPod p = pod.pod;
      releasing.put(p.namespace() + "/" + p.name() + "/" + p.uid(), pod.since);
      out.add(new Effect.ReleaseGate(p.namespace(), p.name(), p.uid(), p.gate()));
    }
  }

  /** The pod first in line, those forgotten or re-created since they were queued dropped. */
  private Waiting nextReady() {
    while (!ready.isEmpty()) {
      Map.Entry<String, Deque<String>> first = ready.entrySet().iterator().next();
      while (!first.getValue().isEmpty()) {
        Waiting pod = waiting.get(first.getValue().peek());
        if (pod != null && pod.queued) {
          return pod;
        }
        first.getValue().poll();
      }
      ready.remove(first.getKey());
    }
    return null;
  }

  /** Gated pods the core waits for. */
  int waiting() {
    return waiting.size();
  }

  /** The keys of the gated pods of every namespace, for a test. */
  List<String> waitingPods() {
    return new ArrayList<>(new java.util.TreeSet<>(waiting.keySet()));
  }

  /**
   * Queues the release in the pod's namespace ({@link #send} sends it); while the writes are held
   * (the policy that bounds them is away) it is owed from now, and goes with the first wake-up
   * after the policy is back.
   */
  private void release(Waiting pod, Effects out, Instant now) {
    if (out.holding()) {
      pod.owed = true;
      pod.retry = new Retry(pod.retry == null ? 1 : pod.retry.attempts(), now);
      return;
    }
    pod.owed = false;
    if (!pod.queued) {
      pod.queued = true;
      ready
          .computeIfAbsent(pod.pod.namespace(), ns -> new ArrayDeque<>())
          .add(pod.pod.namespace() + "/" + pod.pod.name());
    }
  }

  private void forget(String key) {
    Waiting gone = waiting.remove(key);
    if (gone != null) {
      Set<String> keys = byNamespace.get(gone.pod.namespace());
      keys.remove(key);
      if (keys.isEmpty()) {
        byNamespace.remove(gone.pod.namespace());
      }
    }
  }
}
