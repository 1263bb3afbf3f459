package io.kuik.sim.check;

import io.kuik.sim.trace.TraceRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * In a healthy run no request of the syncer is refused by the chart's RBAC or by its admission
 * policy: the syncer asks only for what the chart grants and writes only what the policy admits. A
 * refusal of either kind means it tried something it must not (a read outside the cluster resource
 * namespace, a delete, a Secret the policy bounds away). Refusals that are the cluster's own
 * business, such as a write into a terminating namespace, are not counted.
 */
public final class NoSyncerRequestRefused implements Invariant {

  private final String syncerActor;

  public NoSyncerRequestRefused(String syncerActor) {
    this.syncerActor = syncerActor;
  }

  @Override
  public String name() {
    return "no-syncer-request-refused";
  }

  @Override
  public List<Violation> check(WorldView view, List<TraceRecord> newRecords) {
    List<Violation> out = new ArrayList<>();
    for (TraceRecord record : newRecords) {
      if (record instanceof TraceRecord.Request r
          && r.actor().equals(syncerActor)
          && !r.succeeded()
          && r.message() != null) {
        String by = refuser(r);
        if (by != null) {
          out.add(
              new Violation(
                  name(), by + " refused the syncer's " + r.action() + " of " + r.target(), null));
        }
      }
    }
    return out;
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
