package io.kuik.syncer;

import io.kuik.model.ObservedNamespace;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingResource;
import io.kuik.model.Validated;
import io.kuik.ports.InformerView;
import io.kuik.syncer.ProblemReports.Problem;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Reconciles the pairs that are due (docs/architecture.md#data-flow): takes each from the {@link
 * Pacer}, asks its {@link PairDecision}, keeps what the decision says to keep, reports its
 * problems, and asks for an apply when {@link PairDecision#needsApply} says so and the pacer lets
 * it go; then records what the apply's answer achieved.
 */
final class Reconciler {

  private static final System.Logger LOG = System.getLogger(Reconciler.class.getName());

  /** How a reconcile ended. */
  private enum Outcome {
    /** The desired Secret was applied. */
    APPLIED(true, true),
    /** Decided without a write: nothing to write, unchanged, or not allowed now. */
    NO_WRITE(false, true),
    /** Put back in the queue: no write token, or no room in flight. Nothing was decided. */
    PUT_BACK(false, false),
    /** The apply is in flight: the pair is settled when its answer comes. */
    SENT(false, false),
    /** The apply was refused and a retry is queued: decided, but not reached the server. */
    RETRYING(false, false);

    final boolean applied;

    /** Whether the pair now holds what the view asks for, as far as the core can know. */
    final boolean settled;

    Outcome(boolean applied, boolean settled) {
      this.applied = applied;
      this.settled = settled;
    }
  }

  private final SyncerSettings settings;
  private final InformerView view;
  private final SyncerObserver observer;
  private final Pacer pacer;
  private final PairMemory memory;
  private final ProblemReports problems;
  private final ResourceStatuses statuses;
  private final Propagations propagations;
  private final SyncerCounters counters;
  private final ClaimReports claims;
  private final Gates gates;
  private final ProviderMints mints;

  /** The time of the input being handled: what provider credentials are looked up at. */
  private Instant lookupAt = Instant.EPOCH;

  /** Refused applies, told as one story per outage rather than one line per pair and retry. */
  private final RepeatedFailures applies = new RepeatedFailures(LOG, "Secret applies", "pairs");

  /**
   * Each resource's entry credentials, resolved from its source Secrets until the resource or a
   * Secret of the cluster resource namespace changes, or a resync: a source Secret may hold a
   * megabyte of auths, and reading it again for each pair would cost that much per pair.
   */
  private final Map<ResourceId, EntryCredentials> resolved = new HashMap<>();

  Reconciler(
      SyncerSettings settings,
      InformerView view,
      SyncerObserver observer,
      Pacer pacer,
      PairMemory memory,
      ProblemReports problems,
      ResourceStatuses statuses,
      Propagations propagations,
      SyncerCounters counters,
      ClaimReports claims,
      Gates gates,
      ProviderMints mints) {
    this.settings = settings;
    this.view = view;
    this.observer = observer;
    this.pacer = pacer;
    this.memory = memory;
    this.problems = problems;
    this.statuses = statuses;
    this.propagations = propagations;
    this.counters = counters;
    this.claims = claims;
    this.gates = gates;
    this.mints = mints;
  }

  /** The input handled from here on came at {@code now}. */
  void clock(Instant now) {
    this.lookupAt = now;
  }

  /** The resource changed or went: its credentials are read again when next needed. */
  void forgetCredentials(ResourceId id) {
    resolved.remove(id);
  }

  /** The resource's entry credentials, read from its source Secrets once until they change. */
  EntryCredentials credentialsOf(RoutingResource resource) {
    return resolved.computeIfAbsent(
        resource.id(),
        id ->
            PairDecision.credentialsFrom(view, settings, entry -> mints.lookup(entry, lookupAt))
                .apply(resource));
  }

  /** A source Secret changed, or a resync: every resource's credentials are read again. */
  void forgetCredentials() {
    resolved.clear();
  }

  /**
   * Reconciles the pairs due at {@code now}. When a pair needs a write and none may go (no token,
   * or as many applies in flight as allowed), it goes back to the queue and the rest stay there:
   * the next wake-up comes with the next token, or with the next answer. A reconcile that needs no
   * write costs no token, so only writes are paced. The gates' releases go after the event work and
   * before the resync and the start's pass. Then the statuses due, with what the Secrets left of
   * the budget (a status may wait; a credential should not).
   */
  void runDue(Instant now, Effects out) {
    applies.tick(now);
    Function<RoutingResource, EntryCredentials> credentials = this::credentialsOf;
    boolean paused = false;
    boolean released = false;
    while (!paused) {
      Optional<WorkQueue.Item> item = pacer.next(now);
      if (item.isEmpty()) {
        break;
      }
      Lane lane = item.get().lane();
      if (!released && lane != Lane.EVENT) {
        released = true;
        gates.send(now, out); // the pods that wait go before the resync and the start's pass
      }
      observer.reconcileStarted(lane);
      try {
        Outcome outcome = reconcile(item.get(), now, credentials, out);
        paused = outcome == Outcome.PUT_BACK;
        if (!paused) {
          observer.waited(lane, Duration.between(item.get().due(), now));
        }
        if (!paused && outcome != Outcome.SENT) {
          settled(item.get().pair(), now, outcome);
        }
      } finally {
        observer.reconcileEnded(lane);
      }
    }
    if (!statuses.writeDue(now, view, pacer::takeToken, counters, out) && !paused) {
      counters.writesDeferred++; // a Secret deferred on this wake-up was counted already
    }
  }

  private Outcome reconcile(
      WorkQueue.Item item,
      Instant now,
      Function<RoutingResource, EntryCredentials> credentials,
      Effects out) {
    Pair pair = item.pair();
    counters.reconciles++;
    PairDecision decision =
        PairDecision.decide(
            pair, view, settings, memory.clocks(pair), memory.written(pair), credentials, now);
    if (decision.verdict() == PairDecision.Verdict.GONE) {
      forget(pair, now);
      claims.report(decision.notRecognized(), now, out);
      gates.inSync(pair, now, out);
      return Outcome.NO_WRITE;
    }
    claims.report(decision.notRecognized(), now, out);
    decision
        .hold()
        .ifPresent(
            hold -> {
              memory.look(pair, hold.clocks());
              hold.nextExpiry().ifPresent(at -> pacer.expiresAt(pair, at));
            });
    String uid = decision.resource().map(RoutingResource::uid).orElse(null);
    decision.problems().forEach(problem -> problems.report(pair.resource(), uid, problem, out));
    if (decision.verdict() != PairDecision.Verdict.WRITE) {
      gates.inSync(pair, now, out); // nothing will be written: its pods go on as without the gate
      return Outcome.NO_WRITE;
    }
    Long applied = memory.applied(pair);
    if (applied != null && applied == decision.hash() && !decision.waitsForProvider()) {
      gates.inSync(pair, now, out); // taken, and what the pair must hold now, its pods included
    }
    if (!decision.needsApply(memory.applied(pair), pacer.resyncOwed(pair, now))) {
      counters.appliesSkipped++;
      return Outcome.NO_WRITE;
    }
    if (!pacer.mayApply(now)) {
      pacer.putBack(item); // keeps its place in line
      if (!pacer.inFlightFull()) {
        counters.writesDeferred++;
      }
      return Outcome.PUT_BACK;
    }
    counters.appliesSent++;
    pacer.sent(item, now);
    out.add(
        new Effect.ApplySecret(
            decision.desiredSecret(),
            pair,
            item.lane(),
            uid,
            decision.hash(),
            !decision.content().orElseThrow().auths().isEmpty()));
    return Outcome.SENT;
  }

  /** The API server answered an apply: records it, and lets the pair's next reconcile run. */
  void answered(Input.ApplyAnswered answered, Instant now, Effects out) {
    Effect.ApplySecret sent = answered.apply();
    Pair pair = sent.pair();
    InFlight.Answer answer = pacer.answered(pair);
    if (answered.answer() instanceof Answer.Refused) {
      counters.applyFailures++;
    }
    if (answer.forgotten()) {
      answer.parked().ifPresent(pacer::putBack);
      return;
    }
    Outcome recorded = record(sent, answered.answer(), now, out);
    settled(pair, now, recorded);
    if (recorded == Outcome.APPLIED && gates.waitsOn(pair)) {
      // Whether what was taken is what the pair must hold now is the next reconcile's to say.
      pacer.enqueue(pair, now, Lane.EVENT);
    }
    // After a refusal a parked reconcile waits for the backoff too.
    answer
        .parked()
        .ifPresent(
            parked -> {
              if (recorded == Outcome.RETRYING) {
                pacer.enqueue(pair, parked.due(), parked.lane());
              } else {
                pacer.putBack(parked);
              }
            });
  }

  private Outcome record(Effect.ApplySecret sent, Answer answer, Instant now, Effects out) {
    Pair pair = sent.pair();
    if (answer instanceof Answer.Refused refused) {
      memory.refused(pair);
      if (refused.namespaceTerminating()) {
        return Outcome.NO_WRITE;
      }
      Retry retry = pacer.refused(pair, now, sent.lane());
      applies.failed(pair, refused.summary(), refused.message(), now, retry.notBefore());
      if (refused.code() == 403 || refused.code() == 422) {
        String message =
            "writing "
                + sent.secret().getMetadata().getName()
                + " in namespace "
                + pair.namespace()
                + " was refused: "
                + refused.message();
        problems.report(
            pair.resource(),
            sent.uid(),
            new Problem(ProblemReports.WRITE_REFUSED, pair.namespace(), Set.of(message)),
            out);
      }
      return Outcome.RETRYING;
    }
    applies.succeeded(pair, now);
    memory.wrote(pair, sent.hash());
    statuses.holds(pair, sent.holds(), now);
    if (pacer.succeeded(pair)) {
      problems.report(
          pair.resource(),
          sent.uid(),
          new Problem(ProblemReports.WRITE_REFUSED, pair.namespace(), Set.of()),
          out);
    }
    return Outcome.APPLIED;
  }

  /** After a reconcile that was not put back: the pair's resync and the propagations it ends. */
  private void settled(Pair pair, Instant now, Outcome outcome) {
    pacer.settle(pair, now, outcome.applied);
    if (outcome.settled) {
      propagations.settled(pair, now, outcome.applied).forEach(observer::propagated);
    }
  }

  /** The pair is gone (its resource or its namespace): nothing of it is kept. */
  void forget(Pair pair, Instant now) {
    applies.forget(pair, now);
    pacer.forget(pair);
    memory.forget(pair);
    statuses.holds(pair, false, now);
    propagations.settled(pair, now, false).forEach(observer::propagated);
  }

  /**
   * The periodic resync: every pair owes a forced apply at its slot in the window, which bypasses
   * the hash and so restores a Secret someone else deleted; unchanged content is a no-op on the API
   * server. The window stretches when the pairs that hold a Secret (and those the start's pass has
   * still to apply) cannot all be applied in it at the resync's share of the write budget.
   */
  void resync(Instant now) {
    forgetCredentials();
    pacer.resyncing(
        now,
        memory.writtenCount() + pacer.startPassLeft(pair -> ViewReads.mayHoldASecret(view, pair)));
    Instant from = now.plus(settings.debounce());
    for (Validated resource : view.routingResources()) {
      for (ObservedNamespace ns : view.namespaces()) {
        pacer.oweResync(new Pair(resource.id(), ns.name()), from);
      }
    }
  }
}
