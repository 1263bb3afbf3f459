package io.kuik.syncer;

import static io.kuik.syncer.SyncerHarness.T0;
import static io.kuik.syncer.SyncerHarness.alternative;
import static io.kuik.syncer.SyncerHarness.config;
import static io.kuik.syncer.SyncerHarness.pod;
import static io.kuik.syncer.SyncerHarness.repository;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Applies are asynchronous: the core sends, goes on, and hears each answer later. Several are in
 * flight at once, never more than the setting, and never two of one pair; what the answer says is
 * recorded only when it comes. The fake server takes an apply when it is sent and answers after the
 * latency each test sets.
 */
class AppliesInFlightTest {

  static final String FOO = "quay.io/acme/foo";
  static final String SECRET = "kuik-inject-imagealternative-acme";
  static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");

  /** A generous write limit, so that only the applies in flight bound the pace. */
  private static SyncerHarness cluster(int maxInFlight) {
    return new SyncerHarness(
        SyncerSettings.defaults(SyncerHarness.CLUSTER_RESOURCE_NAMESPACE)
            .withWriteLimit(1_000, 1_000)
            .withMaxInFlight(maxInFlight));
  }

  private static void alwaysIn(SyncerHarness cluster, int namespaces) {
    for (int i = 0; i < namespaces; i++) {
      cluster.applyNamespace(String.format("ns-%03d", i));
    }
    cluster.source("acme-pull", config("quay.io/acme", "acme", "s3cret"));
    cluster.resource(
        alternative("acme", RewritePolicy.ALWAYS, null, repository(0, FOO, "acme-pull")));
  }

  /** How many applies were sent at each time, in time order. */
  private static Map<Instant, Long> sentAt(SyncerHarness cluster) {
    return cluster.applies().stream()
        .collect(
            Collectors.groupingBy(SyncerHarness.Apply::at, TreeMap::new, Collectors.counting()));
  }

  @ParameterizedTest(name = "{1} in flight at {0} ms a round trip: {2} applies a second")
  @CsvSource({"100, 1, 10", "100, 4, 40", "100, 8, 80", "250, 8, 32"})
  void throughputIsTheAppliesInFlightOverTheRoundTrip(
      long roundTripMs, int maxInFlight, int perSecond) {
    SyncerHarness cluster = cluster(maxInFlight).applyLatency(Duration.ofMillis(roundTripMs));
    alwaysIn(cluster, 200);
    cluster.start().advanceSeconds(0.5); // the start's debounce
    cluster.advanceSeconds(1);

    // The first second after the debounce: maxInFlight applies per round trip, each batch going
    // out the moment the answers of the last come back.
    Instant from = T0.plusMillis(500);
    long inFirstSecond =
        cluster.applies().stream()
            .filter(a -> !a.at().isBefore(from) && a.at().isBefore(from.plusSeconds(1)))
            .count();
    assertEquals(perSecond, inFirstSecond);
    assertTrue(sentAt(cluster).values().stream().allMatch(n -> n <= maxInFlight));
  }

  @Test
  void withAnswersAtOnceTheWriteLimitStillPacesTheApplies() {
    SyncerHarness cluster =
        new SyncerHarness(
            SyncerSettings.defaults(SyncerHarness.CLUSTER_RESOURCE_NAMESPACE)
                .withWriteLimit(20, 10));
    alwaysIn(cluster, 100);
    cluster.start().advanceSeconds(0.5).advanceSeconds(0.975);

    // The burst of 10, then one every 50 ms: in flight never stands in for the rate limit. The
    // resource's status write takes one of those tokens.
    assertEquals(1, cluster.statusWrites().size());
    assertEquals(28, cluster.applies().size(), "10 at once, then 19 in the next 975 ms, less one");
  }

  @Test
  void aPairHasAtMostOneApplyInFlightAndAChangeMeanwhileIsAppliedAfterTheAnswer() {
    SyncerHarness cluster = cluster(8).applyLatency(Duration.ofSeconds(2));
    alwaysIn(cluster, 1);
    cluster.start().advanceSeconds(0.5);
    assertEquals(1, cluster.applies().size());

    cluster.source("acme-pull", config("quay.io/acme", "acme", "rotated"));
    cluster.advanceSeconds(1); // past the change's debounce, with the first apply in flight
    assertEquals(1, cluster.applies().size(), "no second apply of the pair while one flies");
    assertEquals(1, cluster.syncer().queueDepth(), "the change waits for the answer");

    cluster.advanceSeconds(1); // the answer comes at 2.5 s
    assertEquals(2, cluster.applies().size());
    SyncerHarness.Apply second = cluster.applies().get(1);
    assertEquals(T0.plusMillis(2_500), second.at(), "sent the moment the answer came");
    assertEquals("rotated", second.content().auths().get(FOO).password());

    cluster.advanceSeconds(5);
    assertEquals(2, cluster.applies().size(), "once the answer is in, nothing more to do");
  }

  @Test
  void aRefusedAnswerIsRetriedAfterItsBackoffEvenWithAChangeWaiting() {
    SyncerHarness cluster = cluster(8).applyLatency(Duration.ofMillis(500));
    AtomicInteger sent = new AtomicInteger();
    cluster.serverAnswers(
        secret ->
            sent.incrementAndGet() == 1
                ? new Answer.Refused(503, "ServiceUnavailable", "later")
                : Answer.APPLIED);
    alwaysIn(cluster, 1);
    cluster.start().advanceSeconds(0.5); // sent at 0.5 s, refused at 1 s
    cluster.source("acme-pull", config("quay.io/acme", "acme", "rotated"));
    cluster.advanceSeconds(3);

    assertEquals(2, cluster.applies().size());
    assertEquals(
        T0.plusSeconds(2),
        cluster.applies().get(1).at(),
        "the retry waits the 1 s backoff from the refusal's answer, change or not");
    assertEquals(1, cluster.syncer().counters().applyFailures());
    assertEquals(
        "rotated", cluster.stored("ns-000", SECRET).orElseThrow().auths().get(FOO).password());
  }

  @Test
  void anAnswerForAPairForgottenMeanwhileRecordsNothing() {
    SyncerHarness cluster = cluster(8).applyLatency(Duration.ofSeconds(1));
    cluster.applyNamespace("team-a");
    cluster.source("acme-pull", config("quay.io/acme", "acme", "s3cret"));
    cluster.resource(
        alternative("acme", RewritePolicy.ON_FAILURE, null, repository(0, FOO, "acme-pull")));
    cluster.start().advanceSeconds(0.5);
    cluster.pod(pod("team-a", "web", ACME, "Running", FOO + ":1.0"));
    cluster.advanceSeconds(0.5); // the pod's apply is sent at 1 s
    assertEquals(1, cluster.applies().size());

    cluster.deleteNamespace("team-a"); // before the answer at 2 s
    cluster.advanceSeconds(2);
    cluster.applyNamespace("team-a"); // again, without pods
    cluster.advanceSeconds(2);

    // Had the answer counted the pair as written, the new namespace would get an emptied Secret.
    assertEquals(1, cluster.applies().size());
  }

  @Test
  void whileTheAppliesInFlightAreAtTheLimitTheCoreWaitsForAnAnswerWithoutSpinning() {
    SyncerHarness cluster = cluster(2).applyLatency(Duration.ofSeconds(10));
    alwaysIn(cluster, 50);
    cluster.start().advanceSeconds(0.5);
    int asked = cluster.wakeupsAsked();
    cluster.advanceSeconds(9);

    assertEquals(2, cluster.applies().size());
    assertEquals(2, cluster.syncer().appliesInFlight());
    assertEquals(asked, cluster.wakeupsAsked(), "no wake-up asked while nothing can go");
    cluster.advanceSeconds(1); // the answers come at 10.5 s
    assertEquals(4, cluster.applies().size());
  }

  @Test
  void eventWorkGoesFirstWhenAPlaceInFlightFreesUp() {
    SyncerHarness cluster = cluster(1).applyLatency(Duration.ofSeconds(1));
    alwaysIn(cluster, 20);
    cluster.start().advanceSeconds(0.5); // one of the start's pass in flight, 19 queued
    cluster.applyNamespace("zz-new");
    cluster.advanceSeconds(1.5); // the new namespace's event is due at 1 s, the answer at 1.5 s

    assertEquals(
        "zz-new", cluster.applies().get(1).namespace(), "event work before the start's pass");
  }
}
