package io.kuik.syncer;

import io.kuik.model.ObservedNamespace;
import io.kuik.model.ResourceId;
import io.kuik.model.Validated;
import io.kuik.ports.InformerView;
import io.kuik.syncer.ProblemReports.Problem;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The secret-syncer's core (docs/architecture.md#the-sans-io-core): a function of its inputs.
 * {@link #handle} takes one {@link Input} and the time, keeps what the core remembers, and returns
 * the {@link Effect}s an executor carries out; it calls nothing that does IO. It reads the
 * informers' caches through a read-only {@link InformerView} that the executor keeps (the caches
 * are too large to copy in), and every change that view shows is also announced as an input.
 *
 * <p>This class turns inputs into work: which pairs a change can affect, each queued after a short
 * debounce. What a pair must hold is {@link PairDecision}; when work may go is the {@link Pacer};
 * the reconcile of due pairs and the answers of their applies are the {@link Reconciler}.
 */
public final class SecretSyncer {

  private final SyncerSettings settings;
  private final InformerView view;
  private final Pacer pacer;
  private final PairMemory memory;
  private final ProblemReports problems = new ProblemReports();
  private final ResourceStatuses statuses = new ResourceStatuses();
  private final Propagations propagations = new Propagations();
  private final SyncerCounters counters = new SyncerCounters();
  private final ClaimReports claims = new ClaimReports(counters);
  private final Gates gates;
  private final Reconciler reconciler;
  private final CredentialTrials trials;
  private final ProviderMints mints;
  private final ProviderWork providers;
  private final PodChanges pods;
  private boolean started;

  /**
   * While the admission policy that bounds the writes is away: the Events kept for the end of the
   * hold (at most {@link #HELD_EVENTS}); null while the writes are not held.
   */
  private List<Effect> held;

  /** Events kept through one hold, at most; later ones are dropped. */
  static final int HELD_EVENTS = 1_000;

  public SecretSyncer(SyncerSettings settings, InformerView view) {
    this(settings, view, SyncerObserver.NONE);
  }

  /** With an observer of what the core measures (the production executor's metrics). */
  public SecretSyncer(SyncerSettings settings, InformerView view, SyncerObserver observer) {
    this(settings, view, observer, new AppliedHashes());
  }

  /** With the given applied-content hashes: a test drops them to show they change no outcome. */
  SecretSyncer(
      SyncerSettings settings, InformerView view, SyncerObserver observer, AppliedHashes hashes) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.view = Objects.requireNonNull(view, "view");
    this.pacer = new Pacer(settings);
    this.memory = new PairMemory(hashes);
    this.gates = new Gates(settings, view, observer, pacer);
    this.pods = new PodChanges(settings, view, memory, claims);
    this.mints = new ProviderMints(settings, view, counters);
    this.reconciler =
        new Reconciler(
            settings,
            view,
            observer,
            pacer,
            memory,
            problems,
            statuses,
            propagations,
            counters,
            claims,
            gates,
            mints);
    this.trials =
        new CredentialTrials(
            view, settings.resyncPeriod(), reconciler::credentialsOf, statuses, problems, counters);
    statuses.credentialsFrom(trials::tried);
    this.providers =
        new ProviderWork(
            mints, view, reconciler, trials, statuses, problems, this::enqueueResource);
  }

  /**
   * Handles one input at {@code now} and returns the effects to carry out, in order. {@link
   * Input.Started} comes first and once; a timer that is not the one the core waits for is stale
   * and changes nothing. Not thread-safe: one caller at a time, with a time that never goes back.
   */
  public List<Effect> handle(Input input, Instant now) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(now, "now");
    Effects out = new Effects(pacer, now, held, trials::redactor);
    reconciler.clock(now);
    if (input instanceof Input.Started) {
      if (started) {
        return List.of();
      }
      start(now, out);
    } else if (!started) {
      throw new IllegalStateException(input + " before the core started");
    } else if (input instanceof Input.TimerFired fired) {
      if (!pacer.fired(fired.timer()) || out.holding()) {
        return List.of(); // stale, or held: the policy's return runs what is due
      }
      if (pacer.resyncDue(now)) {
        reconciler.resync(now);
      }
      reconciler.runDue(now, out);
      gates.retryDue(now, out);
    } else if (input instanceof Input.PodChanged pod) {
      pods.changed(pod.before(), pod.after(), now)
          .forEach(pair -> pacer.enqueue(pair, afterDebounce(now), Lane.EVENT));
      gates.podNoticed(pod.before(), pod.after(), now, out);
    } else if (providers.handle(input, now)) {
      // a mint or a store answered: what changed is looked at below
    } else if (input instanceof Input.ResourceChanged changed) {
      reconciler.forgetCredentials(changed.id());
      mints.read(changed.id());
      view.routingResource(changed.id()).ifPresent(r -> reportValidity(r, out));
      statuses.changed(changed.id(), now);
      trials.read(changed.id(), now, out);
      enqueueResource(changed.id(), now);
    } else if (input instanceof Input.ResourceDeleted deleted) {
      resourceDeleted(deleted.id(), now);
    } else if (input instanceof Input.NamespaceChanged changed) {
      for (Validated resource : view.routingResources()) {
        pacer.enqueue(new Pair(resource.id(), changed.name()), afterDebounce(now), Lane.EVENT);
      }
    } else if (input instanceof Input.NamespaceDeleted deleted) {
      for (Validated resource : view.routingResources()) {
        reconciler.forget(new Pair(resource.id(), deleted.name()), now);
      }
      memory.forgetWritten(pair -> pair.namespace().equals(deleted.name()));
    } else if (input instanceof Input.SourceChanged source) {
      sourceChanged(source.name(), now, out);
    } else if (input instanceof Input.ApplyAnswered answered) {
      reconciler.answered(answered, now, out);
    } else if (input instanceof Input.GateAnswered answered) {
      gates.answered(answered.release(), answered.answer(), now);
    } else if (input instanceof Input.TrialAnswered answered) {
      trials.answered(answered, now, out);
    } else if (input instanceof Input.StatusAnswered answered) {
      statuses.answered(answered.write().status(), answered.answer(), now, counters);
    } else if (input instanceof Input.WriteBoundsChanged bounds) {
      return boundsChanged(bounds.inPlace(), now);
    } else {
      throw new AssertionError("an input of no known kind: " + input);
    }
    return finish(out, now);
  }

  /** The releases that may go, the trials due and the next wake-up, unless the writes are held. */
  private List<Effect> finish(Effects out, Instant now) {
    if (!out.holding()) {
      gates.send(now, out);
      providers.due(now, out);
      trials.due(now, out);
      Optional<Instant> writeDue =
          Stream.of(statuses.nextDue(), gates.nextRelease(now))
              .flatMap(Optional::stream)
              .min(Comparator.naturalOrder());
      Optional<Instant> otherDue =
          Stream.of(trials.nextDue(now), providers.nextDue(now))
              .flatMap(Optional::stream)
              .min(Comparator.naturalOrder());
      pacer.wake(now, writeDue, otherDue).ifPresent(out::add);
    }
    return out.list();
  }

  /**
   * The admission policy that bounds the writes went away, or came back: the hold begins (every
   * input still updates what the core knows, and nothing is decided into a write), or it ends with
   * the Events kept meanwhile and a resync of every pair, whose applies are forced: someone may
   * have written under the reserved names while nothing refused it.
   */
  private List<Effect> boundsChanged(boolean inPlace, Instant now) {
    if (!inPlace) {
      if (held == null) {
        held = new ArrayList<>();
      }
      return List.of();
    }
    if (held == null) {
      return List.of();
    }
    List<Effect> kept = held;
    held = null;
    Effects out = new Effects(pacer, now, null, trials::redactor);
    kept.forEach(out::add);
    reconciler.resync(now);
    reconciler.runDue(now, out);
    gates.retryDue(now, out);
    return finish(out, now);
  }

  /** Once the informers have synced: every pair the view shows is reconciled once. */
  private void start(Instant now, Effects out) {
    started = true;
    pacer.start(now);
    view.routingResources().forEach(r -> reportValidity(r, out));
    Instant due = afterDebounce(now);
    view.routingResources().forEach(r -> statuses.changed(r.id(), due));
    trials.readAll(out);
    mints.readAll();
    for (Validated resource : view.routingResources()) {
      for (ObservedNamespace ns : view.namespaces()) {
        pacer.enqueue(new Pair(resource.id(), ns.name()), due, Lane.START);
      }
    }
    gates.started(now, out);
  }

  /** Its Secrets go with it through their ownerReference: the garbage collector's job. */
  private void resourceDeleted(ResourceId id, Instant now) {
    reconciler.forgetCredentials(id);
    trials.forget(id);
    mints.forget(id);
    for (ObservedNamespace ns : view.namespaces()) {
      reconciler.forget(new Pair(id, ns.name()), now);
    }
    memory.forgetWritten(pair -> pair.resource().equals(id));
    problems.forget(id);
    statuses.forget(id);
  }

  /** A Secret of the cluster resource namespace changed: every pair of the resources naming it. */
  private void sourceChanged(String name, Instant now, Effects out) {
    reconciler.forgetCredentials();
    mints.secretChanged(name);
    List<Pair> queued = new ArrayList<>();
    for (Validated validated : view.routingResources()) {
      if (validated instanceof Validated.Valid valid
          && ViewReads.refersTo(valid.resource(), name)) {
        trials.read(valid.id(), now, out);
        queued.addAll(enqueueResource(valid.id(), now));
      }
    }
    propagations.changed(now, queued);
  }

  private void reportValidity(Validated validated, Effects out) {
    problems.report(
        validated.id(),
        null,
        new Problem(ProblemReports.INVALID_RESOURCE, "", PairDecision.validityMessages(validated)),
        out);
  }

  /** Every pair of the resource, as event work; returns them. */
  private List<Pair> enqueueResource(ResourceId id, Instant now) {
    List<Pair> pairs = new ArrayList<>();
    for (ObservedNamespace ns : view.namespaces()) {
      Pair pair = new Pair(id, ns.name());
      pacer.enqueue(pair, afterDebounce(now), Lane.EVENT);
      pairs.add(pair);
    }
    return pairs;
  }

  private Instant afterDebounce(Instant now) {
    return now.plus(settings.debounce());
  }

  // ---- what the metrics read, on the core's thread --------------------------------------------

  public SyncerCounters counters() {
    return counters;
  }

  /** Pairs waiting: debounced, retried, for a grace's end, a resync, or their apply's answer. */
  public int queueDepth() {
    return pacer.waiting();
  }

  /** The redactor of the credentials the core tries, for the process's log lines. */
  public io.kuik.model.Redactor redactor() {
    return trials.redactor();
  }

  /** Rewritten pods that wait on the pull-secret gate, as this process knows them. */
  public int podsGated() {
    return gates.waiting();
  }

  /** Each provider's soonest-expiring credential written at {@code now}, for the metrics. */
  public Map<String, io.kuik.model.ProviderCredential> providerCredentials(Instant now) {
    return providers.serving(now);
  }

  /** Applies sent and not yet answered. */
  public int appliesInFlight() {
    return pacer.appliesInFlight();
  }

  /** The figures of every lane of the work queue at {@code now}. */
  public Map<Lane, LaneStats> queueStats(Instant now) {
    return pacer.stats(now);
  }

  /**
   * The resync period in effect: the configured one, longer when the resync's share of the write
   * budget cannot apply every pair within it; zero without a resync.
   */
  public Duration resyncPeriod() {
    return pacer.window();
  }
}
