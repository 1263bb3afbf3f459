package io.kuik.sim.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.sim.time.EventLoop;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.Trace;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.StatusReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The policy's absence always ends: an absence drawn while one is open, and a return refused by an
 * outage, once left the policy away for good, and the syncer's writes held for the rest of the run.
 */
class PolicyAbsenceTest {

  private final EventLoop loop = new EventLoop(7);
  private final Trace trace = new Trace(loop.start());
  private final PolicyAbsence absence = new PolicyAbsence(loop, trace);
  private final List<String> calls = new ArrayList<>();
  private int refusals;

  private void delete() {
    if (calls.contains("delete") && !calls.contains("restore")) {
      throw new ApiException(StatusReason.NOT_FOUND, "already gone"); // as the API server answers
    }
    calls.add("delete");
  }

  private void restore() {
    if (refusals > 0) {
      refusals--;
      throw new ApiException(StatusReason.SERVICE_UNAVAILABLE, "outage");
    }
    calls.add("restore");
  }

  private List<String> edges() {
    return trace.records().stream()
        .filter(r -> r instanceof Note.FaultWindow w && w.fault() == Note.Fault.POLICY_AWAY)
        .map(r -> (Note.FaultWindow) r)
        .map(w -> (w.opens() ? "away " : "back ") + Duration.between(loop.start(), w.at()))
        .toList();
  }

  @Test
  void anAbsenceDrawnWhileOneIsOpenMovesTheReturnLaterAndDeletesNothing() {
    absence.awayFor("policy", this::delete, this::restore, Duration.ofMinutes(3));
    loop.runFor(Duration.ofMinutes(1));
    absence.awayFor("policy binding", this::delete, this::restore, Duration.ofMinutes(3));
    loop.runFor(Duration.ofMinutes(10));

    assertEquals(List.of("delete", "restore"), calls);
    assertEquals(List.of("away PT0S", "back PT4M"), edges());
  }

  @Test
  void aReturnRefusedByAnOutageIsTriedAgainUntilItIsTaken() {
    refusals = 3;
    absence.awayFor("policy", this::delete, this::restore, Duration.ofMinutes(2));
    loop.runFor(Duration.ofMinutes(10));

    assertEquals(List.of("delete", "restore"), calls);
    assertEquals(
        List.of(
            "away PT0S",
            "back " + Duration.ofMinutes(2).plus(PolicyAbsence.RESTORE_RETRY.multipliedBy(3))),
        edges());
  }

  @Test
  void aDeletionRefusedByAnOutageOpensNoWindow() {
    calls.add("delete"); // so that the next delete is refused, as in an outage
    try {
      absence.awayFor("policy", this::delete, this::restore, Duration.ofMinutes(2));
    } catch (ApiException expected) {
      // the explorer records the action as refused
    }
    loop.runFor(Duration.ofMinutes(10));

    assertEquals(List.of(), edges());
    assertEquals(List.of("delete"), calls);
  }
}
