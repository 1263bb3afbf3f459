package io.kuik.sim.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.Answer;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.trace.Stage;
import io.kuik.sim.trace.Target;
import io.kuik.sim.trace.TraceRecord;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the syncer may never be refused, and may never send, on hand-made trace records. */
class SyncerRequestInvariantsTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Actor SYNCER = new Actor("syncer");
  private static final WorldView EMPTY =
      new WorldView(T0, Map.of(), Map.of(), List.of(), Map.of(), Map.of());

  private static TraceRecord.Request request(Actor actor, RequestKind kind, Answer answer) {
    return new TraceRecord.Request(T0, actor, kind, Target.secret("team-a", "x"), answer);
  }

  private static Answer refused(int code, Stage stage, String message) {
    return new Answer.Refused(code, stage, message);
  }

  @Test
  void aSyncerRequestRefusedByRbacOrByThePolicyIsAViolation() {
    List<Violation> found =
        new NoSyncerRequestRefused(SYNCER)
            .check(
                EMPTY,
                List.of(
                    request(
                        SYNCER,
                        RequestKind.DELETE,
                        refused(
                            403,
                            Stage.AUTHORIZATION,
                            "secrets \"x\" is forbidden: User \"system:serviceaccount:kuik-system:"
                                + "kuik-secret-syncer\" cannot delete resource \"secrets\"")),
                    request(
                        SYNCER,
                        RequestKind.APPLY,
                        refused(
                            422,
                            Stage.ADMISSION_POLICY,
                            "secrets \"x\" is forbidden: ValidatingAdmissionPolicy 'kuik'"
                                + " denied"))));

    assertEquals(2, found.size(), found.toString());
    assertTrue(
        found.get(0).message().startsWith("RBAC refused the syncer's DELETE"),
        found.get(0).message());
    assertTrue(found.get(1).message().startsWith("the admission policy"), found.get(1).message());
  }

  @Test
  void theClustersOwnRefusalsAndOtherIdentitiesRefusalsAreNotCounted() {
    List<Violation> found =
        new NoSyncerRequestRefused(SYNCER)
            .check(
                EMPTY,
                List.of(
                    request(
                        SYNCER,
                        RequestKind.APPLY,
                        refused(
                            403,
                            Stage.ADMISSION_PLUGIN,
                            "secrets \"x\" is forbidden: unable to create new content in"
                                + " namespace team-a because it is being terminated")),
                    request(
                        SYNCER,
                        RequestKind.APPLY,
                        refused(503, Stage.SERVER_FAULT, "the server is currently unable")),
                    request(
                        new Actor("velero"),
                        RequestKind.CREATE,
                        refused(403, Stage.AUTHORIZATION, "is forbidden: User \"velero\""))));

    assertEquals(List.of(), found);
  }

  /** The stage decides, not the words: a refusal by RBAC whatever its message says. */
  @Test
  void aRefusalIsJudgedByTheStageThatRefusedNotByItsWords() {
    NoSyncerRequestRefused invariant = new NoSyncerRequestRefused(SYNCER);

    assertEquals(
        1,
        invariant
            .check(
                EMPTY,
                List.of(
                    request(SYNCER, RequestKind.GET, refused(403, Stage.AUTHORIZATION, "nope"))))
            .size());
    assertEquals(
        List.of(),
        invariant.check(
            EMPTY,
            List.of(
                request(
                    SYNCER,
                    RequestKind.APPLY,
                    refused(403, Stage.HANDLER, "ValidatingAdmissionPolicy is forbidden")))));
  }

  @Test
  void anyDeleteOfTheSyncerIsAViolationEvenAnAllowedOne() {
    SyncerNeverDeletes invariant = new SyncerNeverDeletes(SYNCER);
    Answer deleted = new Answer.Written(200, "7", false);

    assertEquals(
        1, invariant.check(EMPTY, List.of(request(SYNCER, RequestKind.DELETE, deleted))).size());
    assertEquals(
        List.of(),
        invariant.check(EMPTY, List.of(request(new Actor("alice"), RequestKind.DELETE, deleted))));
  }
}
