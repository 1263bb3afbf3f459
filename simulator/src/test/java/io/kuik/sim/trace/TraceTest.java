package io.kuik.sim.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kuik.sim.time.EventLoop;
import io.kuik.sim.world.api.Identity;
import java.time.Duration;
import java.time.Instant;
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
            RequestKind.APPLY,
            Target.secret("team-a", "kuik-inject-imagemirror-prod"),
            new Answer.Written(200, "12", false)));
    trace.add(
        new TraceRecord.Request(
            EventLoop.EPOCH.plus(Duration.ofHours(25).plusMillis(7)),
            trace.actorOf(Identity.GARBAGE_COLLECTOR),
            RequestKind.DELETE,
            Target.secret("team-b", "x"),
            new Answer.Refused(403, Stage.AUTHORIZATION, "nope")));
    trace.add(
        new Note.Incarnation(
            EventLoop.EPOCH.plus(Duration.ofHours(26)),
            trace.actorOf(SYNCER),
            Note.Process.SYNCER,
            Note.Edge.CRASH,
            2));
    assertEquals(
        "+00:00:05.000  syncer                      APPLY           secrets"
            + " team-a/kuik-inject-imagemirror-prod 200 rv=12\n"
            + "+25:00:00.007  generic-garbage-collector   DELETE          secrets team-b/x 403 nope\n"
            + "+26:00:00.000  syncer                      CRASH           syncer incarnation 2\n",
        trace.timeline());
  }

  @Test
  void targetsAndAnswersRenderAsTheTimelineAlwaysShowedThem() {
    Resource pods = Resource.PODS;
    assertEquals("pods team-a/*", new Target(pods, null, "team-a", "*", null).toString());
    assertEquals("pods * kuik=on", new Target(pods, null, null, "*", "kuik=on").toString());
    assertEquals("pods team-a/", Target.watch(pods, "team-a").toString());
    assertEquals("pods", Target.watch(pods, null).toString());
    assertEquals(
        "imagealternatives/status r1",
        new Target(new Resource("imagealternatives"), "status", null, "r1", null).toString());
    assertEquals("200 3 items", new Answer.Listed(200, 3).text());
    assertEquals("200 rv=9 unchanged", new Answer.Written(200, "9", true).text());
    assertEquals("200", new Answer.Served(200).text());
    assertEquals("503", new Answer.Refused(503, Stage.SERVER_FAULT, "").text());
  }

  @Test
  void theHashCoversEveryFieldOfEveryRecordInOrder() {
    Trace a = new Trace(EventLoop.EPOCH);
    Trace b = new Trace(EventLoop.EPOCH);
    TraceRecord one = window(EventLoop.EPOCH, "1");
    TraceRecord two = window(EventLoop.EPOCH, "2");
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

  /** The family, not the record's own type, heads the canonical line: hashes stay comparable. */
  @Test
  void everyNoteHashesAsOneFamily() {
    assertEquals(
        "Note|1970-01-01T00:00:00Z|fault|OUTAGE|api-server|503 for PT1M",
        new Note.FaultWindow(
                Instant.EPOCH, Note.Fault.API_OUTAGE, true, "api-server", "503 for PT1M")
            .canonical());
    assertEquals(
        "Note|1970-01-01T00:00:00Z|quay.io|DOWN||",
        new Note.RegistryNote(Instant.EPOCH, new Actor("quay.io"), Note.RegistryEvent.DOWN, "", "")
            .canonical());
  }

  @Test
  void anExpiryCarriesNoEventAndADeliveryOne() {
    Target pods = Target.watch(Resource.PODS, null);
    Actor kubelet = new Actor("kubelet");
    assertEquals(
        "410 Gone",
        TraceRecord.WatchDelivery.expired(Instant.EPOCH, kubelet, "kubelet/pods", pods)
            .columns()
            .outcome());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new TraceRecord.WatchDelivery(
                Instant.EPOCH,
                kubelet,
                "kubelet/pods",
                TraceRecord.WatchDelivery.Fate.DELIVERED,
                null,
                pods,
                "3"));
  }

  private static TraceRecord window(Instant at, String detail) {
    return new Note.FaultWindow(at, Note.Fault.WATCH_FAULT, true, "syncer watches", detail);
  }
}
