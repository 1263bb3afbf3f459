package io.kuik.sim.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.kuik.sim.time.EventLoop;
import io.kuik.sim.world.api.Identity;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TraceTest {

  private static final Identity SYNCER =
      io.kuik.sim.hosts.SyncerHost.podIdentity("kuik-system", "kuik-secret-syncer");

  @Test
  void rendersOneFixedColumnLinePerRecord() {
    Trace trace = new Trace(EventLoop.EPOCH);
    trace.alias(SYNCER, "syncer");
    trace.add(
        new TraceRecord.Request(
            EventLoop.EPOCH.plus(Duration.ofSeconds(5)),
            trace.actorOf(SYNCER),
            "APPLY",
            "secrets team-a/kuik-inject-imagemirror-prod",
            200,
            "rv=12",
            null));
    trace.add(
        new TraceRecord.Request(
            EventLoop.EPOCH.plus(Duration.ofHours(25).plusMillis(7)),
            trace.actorOf(Identity.GARBAGE_COLLECTOR),
            "DELETE",
            "secrets team-b/x",
            403,
            "",
            "nope"));
    assertEquals(
        "+00:00:05.000  syncer                      APPLY           secrets"
            + " team-a/kuik-inject-imagemirror-prod 200 rv=12\n"
            + "+25:00:00.007  generic-garbage-collector   DELETE          secrets team-b/x 403 nope\n",
        trace.timeline());
  }

  @Test
  void theHashCoversEveryFieldOfEveryRecordInOrder() {
    Trace a = new Trace(EventLoop.EPOCH);
    Trace b = new Trace(EventLoop.EPOCH);
    TraceRecord one = new TraceRecord.Note(EventLoop.EPOCH, "x", "NOTE", "t", "1");
    TraceRecord two = new TraceRecord.Note(EventLoop.EPOCH, "x", "NOTE", "t", "2");
    a.add(one);
    a.add(two);
    b.add(one);
    b.add(two);
    assertEquals(a.hash(), b.hash());
    Trace swapped = new Trace(EventLoop.EPOCH);
    swapped.add(two);
    swapped.add(one);
    assertNotEquals(a.hash(), swapped.hash());
  }
}
