package io.kuik.sim.check;

import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.Answer;
import io.kuik.sim.trace.TraceRecord;
import java.util.Optional;

/**
 * In a healthy run no request of the syncer is refused by the chart's RBAC or by its admission
 * policy: the syncer asks only for what the chart grants and writes only what the policy admits. A
 * refusal of either kind means it tried something it must not (a read outside the cluster resource
 * namespace, a delete, a Secret the policy bounds away). Refusals that are the cluster's own
 * business, such as a write into a terminating namespace, are not counted.
 */
public final class NoSyncerRequestRefused extends SyncerRequestInvariant {

  public NoSyncerRequestRefused(Actor syncer) {
    super(syncer);
  }

  @Override
  public String name() {
    return "no-syncer-request-refused";
  }

  @Override
  Optional<Violation> judge(TraceRecord.Request r) {
    if (!(r.answer() instanceof Answer.Refused refused)) {
      return Optional.empty();
    }
    return refuser(refused)
        .map(
            by ->
                new Violation(
                    name(), by + " refused the syncer's " + r.kind() + " of " + r.target(), null));
  }

  /** Who refused, when the refusal says the syncer asked for what it must not. */
  private static Optional<String> refuser(Answer.Refused refused) {
    return switch (refused.stage()) {
      case AUTHORIZATION -> Optional.of("RBAC");
      case ADMISSION_POLICY -> Optional.of("the admission policy");
      case SERVER_FAULT, ADMISSION_PLUGIN, ADMISSION_WEBHOOK, OBJECT_VALIDATION, HANDLER ->
          Optional.empty();
    };
  }
}
