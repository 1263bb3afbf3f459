package io.kuik.sim.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.trace.TraceRecord;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the syncer may never be refused, and may never send, on hand-made trace records. */
class SyncerRequestInvariantsTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final WorldView EMPTY =
      new WorldView(T0, Map.of(), Map.of(), List.of(), Map.of(), Map.of());

  private static TraceRecord.Request request(
      String actor, String action, int code, String message) {
    return new TraceRecord.Request(T0, actor, action, "secrets team-a/x", code, "", message);
  }

  @Test
  void aSyncerRequestRefusedByRbacOrByThePolicyIsAViolation() {
    List<Violation> found =
        new NoSyncerRequestRefused("syncer")
            .check(
                EMPTY,
                List.of(
                    request(
                        "syncer",
                        "DELETE",
                        403,
                        "secrets \"x\" is forbidden: User \"system:serviceaccount:kuik-system:"
                            + "kuik-secret-syncer\" cannot delete resource \"secrets\""),
                    request(
                        "syncer",
                        "APPLY",
                        422,
                        "secrets \"x\" is forbidden: ValidatingAdmissionPolicy 'kuik' denied")));

    assertEquals(2, found.size(), found.toString());
    assertTrue(
        found.get(0).message().startsWith("RBAC refused the syncer's DELETE"),
        found.get(0).message());
    assertTrue(found.get(1).message().startsWith("the admission policy"), found.get(1).message());
  }

  @Test
  void theClustersOwnRefusalsAndOtherIdentitiesRefusalsAreNotCounted() {
    List<Violation> found =
        new NoSyncerRequestRefused("syncer")
            .check(
                EMPTY,
                List.of(
                    request(
                        "syncer",
                        "APPLY",
                        403,
                        "secrets \"x\" is forbidden: unable to create new content in namespace"
                            + " team-a because it is being terminated"),
                    request("syncer", "APPLY", 503, "the server is currently unable"),
                    request("velero", "CREATE", 403, "is forbidden: User \"velero\" cannot")));

    assertEquals(List.of(), found);
  }

  @Test
  void anyDeleteOfTheSyncerIsAViolationEvenAnAllowedOne() {
    SyncerNeverDeletes invariant = new SyncerNeverDeletes("syncer");

    assertEquals(1, invariant.check(EMPTY, List.of(request("syncer", "DELETE", 200, ""))).size());
    assertEquals(List.of(), invariant.check(EMPTY, List.of(request("alice", "DELETE", 200, ""))));
  }
}
