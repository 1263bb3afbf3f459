package io.kuik.syncer;

import io.kuik.model.ResourceId;
import io.kuik.model.RoutingResource;
import io.kuik.model.Validated;
import io.kuik.ports.InformerView;
import io.kuik.syncer.ProblemReports.Problem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * What the core does about provider credentials (docs/behaviour.md#provider-credentials), between
 * the inputs and {@link ProviderMints}: when a resource's provider entries change what they have (a
 * credential minted, a failure, a credential crossing the validity bound), its credentials are read
 * again, its pairs queued, its status and trials due again, and its mint failures reported as
 * {@value #FAILED_EVENT} Events; then the mints and stores that are due go out.
 */
final class ProviderWork {

  static final String FAILED_EVENT = "ProviderCredentialFailed";

  private final ProviderMints mints;
  private final InformerView view;
  private final Reconciler reconciler;
  private final CredentialTrials trials;
  private final ResourceStatuses statuses;
  private final ProblemReports problems;
  private final BiConsumer<ResourceId, Instant> enqueue;

  ProviderWork(
      ProviderMints mints,
      InformerView view,
      Reconciler reconciler,
      CredentialTrials trials,
      ResourceStatuses statuses,
      ProblemReports problems,
      BiConsumer<ResourceId, Instant> enqueue) {
    this.mints = mints;
    this.view = view;
    this.reconciler = reconciler;
    this.trials = trials;
    this.statuses = statuses;
    this.problems = problems;
    this.enqueue = enqueue;
    statuses.providersFrom(this::states);
  }

  /** The inputs that concern provider credentials; returns whether {@code input} was one. */
  boolean handle(Input input, Instant now) {
    if (input instanceof Input.MintAnswered answered) {
      mints.answered(answered, now);
    } else if (input instanceof Input.StoreAnswered answered) {
      mints.stored(answered, now);
    } else {
      return false;
    }
    return true;
  }

  /**
   * What changed for each resource's provider entries since the last look, then the mints and
   * stores due; never while the writes are held.
   */
  void due(Instant now, Effects out) {
    for (ResourceId id : mints.changed(now)) {
      reconciler.forgetCredentials(id);
      trials.read(id, now, out);
      statuses.changed(id, now);
      enqueue.accept(id, now);
      view.routingResource(id)
          .filter(Validated.Valid.class::isInstance)
          .map(v -> ((Validated.Valid) v).resource())
          .map(RoutingResource::uid)
          .ifPresent(
              uid ->
                  problems.report(
                      id, uid, new Problem(FAILED_EVENT, "", mints.failures(id, now)), out));
    }
    mints.due(now, out);
  }

  /** Each injecting provider entry of the resource, and what it has now, for its condition. */
  private List<ProviderCondition.EntryState> states(ResourceId id, Instant now) {
    List<ProviderCondition.EntryState> states = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    view.routingResource(id)
        .filter(Validated.Valid.class::isInstance)
        .map(v -> ProviderLookup.entries(((Validated.Valid) v).resource()))
        .orElse(List.of())
        .forEach(
            entry -> {
              if (keys.add(entry.authsKey())) {
                states.add(
                    new ProviderCondition.EntryState(
                        entry.authsKey(),
                        entry.auth().provider(),
                        mints.lookup(entry, now),
                        mints.failing(entry)));
              }
            });
    return states;
  }

  Optional<Instant> nextDue(Instant now) {
    return mints.nextDue(now);
  }

  /** Each provider's soonest expiry among the credentials that serve, for the metric. */
  Map<String, io.kuik.model.ProviderCredential> serving(Instant now) {
    return mints.serving(now);
  }
}
