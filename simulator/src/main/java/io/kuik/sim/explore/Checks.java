package io.kuik.sim.explore;

import io.kuik.selftest.CheckResult;
import io.kuik.selftest.Selftest;
import io.kuik.selftest.SelftestReport;
import io.kuik.sim.check.Convergence;
import io.kuik.sim.check.CredentialsStayInScope;
import io.kuik.sim.check.HoldFollowsThePolicy;
import io.kuik.sim.check.Invariant;
import io.kuik.sim.check.NoSyncerRequestRefused;
import io.kuik.sim.check.NotReleasedBeforeTheGrace;
import io.kuik.sim.check.NothingWrittenWhileHeld;
import io.kuik.sim.check.ProviderCredentialsValid;
import io.kuik.sim.check.ReleasedWhenTheGraceEnds;
import io.kuik.sim.check.SecretsReadOnlyInInstallNamespace;
import io.kuik.sim.check.SyncerNeverDeletes;
import io.kuik.sim.check.Violation;
import io.kuik.sim.check.WorldView;
import io.kuik.sim.dsl.History;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.trace.TraceRecord;
import java.util.List;
import java.util.Optional;

/**
 * The explorer's checkers, apart from the world they judge: every safety invariant after each step,
 * on the administrator's view and the trace records added since the previous check; and, once every
 * fault has healed, the liveness check that names what is still pending. They take the documented
 * numbers ({@link Bounds}), never the syncer's settings.
 */
final class Checks {

  private final KuikWorld world;
  private final List<Invariant> invariants;
  private int cursor;

  Checks(KuikWorld world) {
    this.world = world;
    this.invariants =
        List.of(
            new CredentialsStayInScope(
                History.SYNCER, Bounds.DOCUMENTED_GRACE, Bounds.SLACK, Bounds.STALENESS),
            new NotReleasedBeforeTheGrace(
                History.SYNCER, Explorer.INSTALL, Bounds.DOCUMENTED_GRACE, Bounds.RELIST),
            new ReleasedWhenTheGraceEnds(
                History.SYNCER,
                Explorer.INSTALL,
                Bounds.DOCUMENTED_GRACE,
                Bounds.GRACE_END_MARGIN,
                Bounds.RELIST,
                Bounds.AFTERMATH),
            new NoSyncerRequestRefused(History.SYNCER),
            new SyncerNeverDeletes(History.SYNCER),
            new NothingWrittenWhileHeld(History.SYNCER),
            new HoldFollowsThePolicy(History.SYNCER, Bounds.HOLD_DELAY, Bounds.RELIST),
            new SecretsReadOnlyInInstallNamespace(History.SYNCER, Explorer.INSTALL),
            new ProviderCredentialsValid(
                History.SYNCER,
                Bounds.PROVIDER_MIN_VALIDITY,
                Bounds.PROVIDER_WRITE_LEAD,
                world.providers()::expiryOf,
                Bounds.RETRY_CAP));
  }

  /** Every safety invariant on what happened since the last check: the first violation, if any. */
  Optional<Violation> safety() {
    List<TraceRecord> records = world.history().records();
    List<TraceRecord> fresh = List.copyOf(records.subList(cursor, records.size()));
    cursor = records.size();
    WorldView view = world.views().adminView(Explorer.INSTALL);
    Optional<Violation> first = Optional.empty();
    for (Invariant invariant : invariants) {
      List<Violation> found = invariant.check(view, fresh);
      if (first.isEmpty() && !found.isEmpty()) {
        first = Optional.of(found.get(0));
      }
    }
    return first;
  }

  /** Safety, then whether the world converged: every pending item, or empty. */
  Optional<Violation> liveness() {
    Optional<Violation> safety = safety();
    if (safety.isPresent()) {
      return safety;
    }
    WorldView view = world.views().adminView(Explorer.INSTALL);
    List<Violation> pending = new java.util.ArrayList<>(Convergence.pending(view));
    pending.addAll(
        ProviderCredentialsValid.pending(
            view, world.providers()::expiryOf, Bounds.PROVIDER_MIN_VALIDITY));
    if (pending.isEmpty()) {
      return helmTest();
    }
    StringBuilder all = new StringBuilder();
    for (Violation v : pending) {
      all.append("\n    still pending: ").append(v.message());
    }
    Violation first = pending.get(0);
    return Optional.of(
        new Violation(first.invariant(), pending.size() + " pending" + all, first.secretTarget()));
  }

  /**
   * {@code helm test} of the first release, once the world converged: every check must pass but the
   * credentials' (the explorer's registries serve its images to anyone and know no user, so they
   * refuse every credential; the credential features judge that row).
   */
  private Optional<Violation> helmTest() {
    SelftestReport report = world.install().helmTest();
    boolean failed =
        report.checks().stream()
            .anyMatch(
                row ->
                    row.result() == CheckResult.Result.FAIL
                        && !row.check().equals(Selftest.CREDENTIALS));
    return failed
        ? Optional.of(
            new Violation("helm-test-passes", "helm test failed:\n" + report.text(), null))
        : Optional.empty();
  }
}
