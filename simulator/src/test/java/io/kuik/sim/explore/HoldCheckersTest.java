package io.kuik.sim.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.sim.check.HoldFollowsThePolicy;
import io.kuik.sim.check.NothingWrittenWhileHeld;
import io.kuik.sim.check.Violation;
import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.Answer;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.trace.Resource;
import io.kuik.sim.trace.Target;
import io.kuik.sim.trace.TraceRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The checkers of the write hold on hand-made traces: every kind of write the syncer sends while it
 * holds is a violation (a Secret, a status, an Event, a gate release), reads are not; the world's
 * policy going away must be followed within the hold's delay, unless the watches were disturbed.
 */
class HoldCheckersTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Actor SYNCER = new Actor("syncer");
  private static final Actor OTHER = new Actor("core-syncer");

  private static TraceRecord held(Instant at, boolean inPlace) {
    return new Note.WriteBounds(at, SYNCER, inPlace, inPlace ? "in place" : "binding missing");
  }

  private static TraceRecord request(Instant at, Actor actor, RequestKind kind, Target target) {
    return new TraceRecord.Request(at, actor, kind, target, new Answer.Written(200, "2", false));
  }

  private static TraceRecord window(Instant at, Note.Fault fault, boolean opens) {
    return new Note.FaultWindow(at, fault, opens, "kuik-pull-secrets binding", "");
  }

  private static final List<Target> WRITES =
      List.of(
          Target.secret("team-a", "kuik-inject-imagealternative-r1"),
          new Target(new Resource("imagealternatives"), "status", null, "r1", null),
          Target.object(Resource.EVENTS, "team-a", "r1.1"),
          Target.object(Resource.PODS, "team-a", "web-1"));

  @Test
  void everyKindOfWriteWhileHeldIsAViolationAndReadsAreNot() {
    for (Target target : WRITES) {
      NothingWrittenWhileHeld checker = new NothingWrittenWhileHeld(SYNCER);
      assertTrue(
          checker.check(null, List.of(request(T0, SYNCER, RequestKind.APPLY, target))).isEmpty(),
          "not held yet");
      List<Violation> found =
          checker.check(
              null,
              List.of(
                  held(T0.plusSeconds(1), false),
                  request(T0.plusSeconds(2), SYNCER, RequestKind.LIST, target),
                  request(T0.plusSeconds(2), OTHER, RequestKind.PATCH, target),
                  request(T0.plusSeconds(3), SYNCER, RequestKind.PATCH, target)));
      assertEquals(1, found.size(), target.toString());
      assertTrue(found.get(0).message().contains("binding missing"), found.get(0).message());
      assertTrue(
          checker
              .check(
                  null,
                  List.of(
                      held(T0.plusSeconds(4), true),
                      request(T0.plusSeconds(5), SYNCER, RequestKind.CREATE, target)))
              .isEmpty(),
          "written once back in place");
    }
  }

  @Test
  void aWriteAfterThePolicyWentAwayIsAllowedOnlyWithinTheDelayOrADisturbance() {
    Target secret = WRITES.get(0);
    HoldFollowsThePolicy checker =
        new HoldFollowsThePolicy(SYNCER, Duration.ofSeconds(5), Duration.ofMinutes(1));
    assertTrue(
        checker
            .check(
                null,
                List.of(
                    window(T0, Note.Fault.POLICY_AWAY, true),
                    request(T0.plusSeconds(4), SYNCER, RequestKind.APPLY, secret),
                    request(T0.plusSeconds(20), OTHER, RequestKind.APPLY, secret)))
            .isEmpty(),
        "within the delay, or another actor");
    assertEquals(
        1,
        checker
            .check(null, List.of(request(T0.plusSeconds(5), SYNCER, RequestKind.APPLY, secret)))
            .size());

    assertTrue(
        checker
            .check(
                null,
                List.of(
                    window(T0.plusSeconds(10), Note.Fault.WATCH_FAULT, true),
                    request(T0.plusSeconds(30), SYNCER, RequestKind.APPLY, secret),
                    window(T0.plusSeconds(40), Note.Fault.WATCH_FAULT, false),
                    request(T0.plusSeconds(99), SYNCER, RequestKind.APPLY, secret)))
            .isEmpty(),
        "its watches disturbed, then a relist's time after they healed");
    assertEquals(
        1,
        checker
            .check(null, List.of(request(T0.plusSeconds(100), SYNCER, RequestKind.APPLY, secret)))
            .size());

    assertTrue(
        checker
            .check(
                null,
                List.of(
                    window(T0.plusSeconds(120), Note.Fault.POLICY_AWAY, false),
                    request(T0.plusSeconds(121), SYNCER, RequestKind.APPLY, secret)))
            .isEmpty(),
        "back");
  }
}
