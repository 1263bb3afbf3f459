package io.kuik.sim.check;

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

  public NoSyncerRequestRefused(String syncerActor) {
    super(syncerActor);
  }

  @Override
  public String name() {
    return "no-syncer-request-refused";
  }

  @Override
  Optional<Violation> judge(TraceRecord.Request r) {
    if (r.succeeded() || r.message() == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(refuser(r))
        .map(
            by ->
                new Violation(
                    name(),
                    by + " refused the syncer's " + r.action() + " of " + r.target(),
                    null));
  }

  /** Who refused: RBAC (the authorizer's 403 wording), the admission policy, or null. */
  private static String refuser(TraceRecord.Request r) {
    if (r.code() == 403 && r.message().contains("is forbidden: User \"")) {
      return "RBAC";
    }
    if (r.message().contains("ValidatingAdmissionPolicy")) {
      return "the admission policy";
    }
    return null;
  }
}
