package io.kuik.syncer;

import io.kuik.model.CredentialTrial;
import io.kuik.model.Entry;
import io.kuik.model.Redactor;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RoutingResource;
import io.kuik.model.TrialVerdict;
import io.kuik.model.Validated;
import io.kuik.ports.InformerView;
import io.kuik.syncer.ProblemReports.Problem;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Credentials tried ahead of time (docs/behaviour.md#credentials-tried-ahead-of-time), as the core
 * takes part in it: which registry and credential each resource's injecting entries bring (read
 * again when the resource or a source Secret changes), the {@link Effect.TryCredential} effects due
 * ({@link CredentialChecks} says when), and what an answer changes: the resources' statuses due
 * again, and an Event {@value #REFUSED_EVENT} on each resource once per refusal it did not report.
 * The credentials are resolved from the cluster resource namespace's Secrets the informers already
 * hold: no other Secret is read.
 */
final class CredentialTrials {

  static final String REFUSED_EVENT = "PullSecretCredentialRefused";

  private final CredentialChecks checks = new CredentialChecks();
  private final InformerView view;
  private final Duration period;
  private final Function<RoutingResource, EntryCredentials> credentials;
  private final ResourceStatuses statuses;
  private final ProblemReports problems;
  private final SyncerCounters counters;
  private Set<RegistryCredential> redacted = Set.of();
  private Redactor redactor = Redactor.none();

  /**
   * @param period how often a registry and credential may be tried again: the resync period; zero,
   *     only when an entry or its source changes
   * @param credentials the resource's entry credentials, as the reconciles resolve them
   */
  CredentialTrials(
      InformerView view,
      Duration period,
      Function<RoutingResource, EntryCredentials> credentials,
      ResourceStatuses statuses,
      ProblemReports problems,
      SyncerCounters counters) {
    this.view = view;
    this.period = period;
    this.credentials = credentials;
    this.statuses = statuses;
    this.problems = problems;
    this.counters = counters;
  }

  /** Every resource the view shows, at the start. */
  void readAll(Effects out) {
    view.routingResources().forEach(r -> entries(r.id(), out));
  }

  /**
   * The resource's entries or a source Secret changed: what its injecting entries bring is read
   * again. A registry and credential new to the core is due at once; the status is due when they
   * changed (an answer makes it due again).
   */
  void read(ResourceId id, Instant now, Effects out) {
    if (entries(id, out)) {
      statuses.changed(id, now);
    }
  }

  /** Reads the resource's injecting entries; returns whether they changed. */
  private boolean entries(ResourceId id, Effects out) {
    Optional<RoutingResource> resource =
        view.routingResource(id)
            .filter(Validated.Valid.class::isInstance)
            .map(v -> ((Validated.Valid) v).resource());
    if (resource.isEmpty()) {
      return checks.forget(id);
    }
    EntryCredentials resolved = credentials.apply(resource.get());
    List<CredentialChecks.Target> targets = new ArrayList<>();
    Set<String> keys = new LinkedHashSet<>();
    for (Entry entry : resource.get().entries()) {
      RegistryCredential credential = resolved.credentials().get(entry.authsKey());
      if (entry.injects() && credential != null && keys.add(entry.authsKey())) {
        targets.add(
            new CredentialChecks.Target(
                entry.authsKey(), entry.registry(), entry.pathInRegistry(), credential));
      }
    }
    boolean changed = checks.entries(id, targets);
    reportRefusals(resource.get(), out);
    return changed;
  }

  void forget(ResourceId id) {
    checks.forget(id);
  }

  /** The trials due at {@code now}, as effects; each is in flight until its answer. */
  void due(Instant now, Effects out) {
    for (CredentialTrial trial : checks.due(now, period)) {
      counters.credentialTrialsSent++;
      out.add(new Effect.TryCredential(trial));
    }
  }

  /** When the next trial falls due, if any. */
  Optional<Instant> nextDue(Instant now) {
    return checks.nextDue(now, period);
  }

  /**
   * A registry answered: the resources sharing its registry and credential are due a status, and a
   * refusal they have not reported yet is an Event on each.
   */
  void answered(Input.TrialAnswered answered, Instant now, Effects out) {
    counters.credentialTrialAnswered(answered.verdict().outcome());
    CredentialTrial trial = answered.trial().trial();
    // A registry may echo what it was sent: no form of the credential is kept from its answer.
    TrialVerdict verdict = Redactor.of(List.of(trial.credential())).redact(answered.verdict());
    for (ResourceId id : checks.answered(trial, verdict, now)) {
      statuses.changed(id, now);
      view.routingResource(id)
          .filter(Validated.Valid.class::isInstance)
          .map(v -> ((Validated.Valid) v).resource())
          .ifPresent(resource -> reportRefusals(resource, out));
    }
  }

  /**
   * Takes every form of each credential tried, to be tried, or tried within the last period out of
   * a text: what every status and Event the core writes passes.
   */
  Redactor redactor() {
    Set<RegistryCredential> now = checks.credentials();
    if (!now.equals(redacted)) {
      redacted = now;
      redactor = Redactor.of(now);
    }
    return redactor;
  }

  /** Each injecting entry of the resource, and what its registry last answered. */
  List<CredentialChecks.Tried> tried(ResourceId id) {
    return checks.tried(id);
  }

  /**
   * One Event per refused entry and answer not reported before: a refusal repeated at each period
   * is reported once, a new answer or a new refused entry again.
   */
  private void reportRefusals(RoutingResource resource, Effects out) {
    Set<String> messages = new LinkedHashSet<>();
    for (CredentialChecks.Tried tried : checks.tried(resource.id())) {
      if (tried.verdict() != null && tried.verdict().outcome() == TrialVerdict.Outcome.REFUSED) {
        messages.add(
            "the credential of "
                + tried.target().authsKey()
                + " was refused by "
                + tried.target().registry()
                + " for a pull: "
                + tried.verdict().answer()
                + "; pods pulling through it would fail with ImagePullBackOff");
      }
    }
    problems.report(resource.id(), resource.uid(), new Problem(REFUSED_EVENT, "", messages), out);
  }
}
