package io.kuik.syncer;

import static io.kuik.syncer.SyncerHarness.alternative;
import static io.kuik.syncer.SyncerHarness.config;
import static io.kuik.syncer.SyncerHarness.repository;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the core measures for the metrics: its queue per lane, and how long a rotation takes. */
class SyncerObservationsTest {

  static final String FOO = "quay.io/acme/foo";
  static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");

  /** Records what the core reports, in order. */
  static final class Recorder implements SyncerObserver {
    final List<String> calls = new ArrayList<>();
    final List<Duration> propagations = new ArrayList<>();
    final List<Duration> released = new ArrayList<>();

    @Override
    public void gateReleased(Duration waited) {
      released.add(waited);
    }

    @Override
    public void reconcileStarted(Lane lane) {
      calls.add("start " + lane.label());
    }

    @Override
    public void reconcileEnded(Lane lane) {
      calls.add("end " + lane.label());
    }

    @Override
    public void waited(Lane lane, Duration waited) {
      calls.add("waited " + lane.label() + " " + waited.toMillis());
    }

    @Override
    public void propagated(Duration took) {
      propagations.add(took);
    }

    List<String> waits(Lane lane) {
      return calls.stream().filter(c -> c.startsWith("waited " + lane.label() + " ")).toList();
    }
  }

  private final Recorder recorder = new Recorder();

  /** One apply a second, none saved up: the queue is seen waiting. */
  private SyncerHarness pacedCluster(int namespaces) {
    return pacedCluster(namespaces, Duration.ZERO);
  }

  /** The same, with a resync every {@code resync}. */
  private SyncerHarness pacedCluster(int namespaces, Duration resync) {
    SyncerHarness cluster =
        new SyncerHarness(
            SyncerHarness.noResync().withWriteLimit(1, 1).withResyncPeriod(resync),
            recorder,
            new AppliedHashes());
    for (int i = 0; i < namespaces; i++) {
      cluster.applyNamespace("ns-" + i);
    }
    cluster.source("acme-pull", config("quay.io/acme", "acme", "s3cret"));
    cluster.resource(
        alternative("acme", RewritePolicy.ALWAYS, null, repository(0, FOO, "acme-pull")));
    return cluster;
  }

  @Test
  void eachReconcileIsStartedEndedAndMeasuredOnceEvenWhenPutBackForAToken() {
    SyncerHarness cluster = pacedCluster(3);
    cluster.start().advance(Duration.ofSeconds(5));

    // Tokens at 0.5 (the burst of 1), 1.5 and 2.5: the second and third pairs are put back.
    assertEquals(
        List.of("waited start 0", "waited start 1000", "waited start 2000"),
        recorder.waits(Lane.START));
    long started = recorder.calls.stream().filter(c -> c.startsWith("start ")).count();
    long ended = recorder.calls.stream().filter(c -> c.startsWith("end ")).count();
    assertEquals(started, ended);
    assertEquals(5, started, "three reconciles, two of them tried twice");
  }

  @Test
  void theLaneFiguresShowDuePairsWaitingForTokens() {
    SyncerHarness cluster = pacedCluster(3);
    cluster.start().advanceSeconds(0.5);
    // At 0.5 s the first pair took the only token; two are due and wait for tokens.
    LaneStats start = cluster.laneStats(Lane.START);
    assertEquals(new LaneStats(2, 0, 3, 0, Duration.ZERO), start);
    cluster.advanceSeconds(0.4);
    assertEquals(Duration.ofMillis(400), cluster.laneStats(Lane.START).longestWaiting());

    cluster.advanceSeconds(3);
    assertEquals(new LaneStats(0, 0, 3, 0, Duration.ZERO), cluster.laneStats(Lane.START));
    assertEquals(0, cluster.laneStats(Lane.EVENT).adds(), "no event work yet");
  }

  @Test
  void retriesAreCountedAgainstTheLaneWhoseApplyWasRefused() {
    SyncerHarness cluster = pacedCluster(1, SyncerSettings.DEFAULT_RESYNC_PERIOD);
    cluster.start().advanceSeconds(2);
    cluster.serverAnswers(secret -> new Answer.Refused(503, "Unavailable", "later"));
    Instant slot =
        new ResyncSlots(SyncerSettings.DEFAULT_RESYNC_PERIOD, SyncerHarness.T0)
            .slotAtOrAfter(new Pair(ACME, "ns-0"), cluster.now().plusNanos(1));
    // The resync's try at its slot, and a retry 1 s later.
    cluster.advance(Duration.between(cluster.now(), slot).plusMillis(1500));
    assertEquals(1, cluster.laneStats(Lane.RESYNC).retries());
    assertEquals(1, cluster.laneStats(Lane.EVENT).retries());
    assertEquals(0, cluster.laneStats(Lane.START).retries());
  }

  @Test
  void aRotatedSourceMeasuresTheTimeToItsLastPairApplied() {
    SyncerHarness cluster = pacedCluster(3);
    cluster.start().advance(Duration.ofSeconds(10));
    assertEquals(List.of(), recorder.propagations, "the start is no source change");

    cluster.source("acme-pull", config("quay.io/acme", "acme", "rotated"));
    cluster.advance(Duration.ofSeconds(10));

    // Due after the 0.5 s debounce; one token then, the next two a second apart.
    assertEquals(List.of(Duration.ofMillis(2500)), recorder.propagations);
  }

  @Test
  void aSourceChangeThatChangesNoSecretMeasuresNothing() {
    SyncerHarness cluster = pacedCluster(3);
    cluster.start().advance(Duration.ofSeconds(10));
    cluster.source(
        "acme-pull",
        new SecretBuilder(
                SyncerHarness.dockerConfigSecret(
                    "acme-pull", config("quay.io/acme", "acme", "s3cret").toJson()))
            .editMetadata()
            .addToAnnotations("note", "unrelated")
            .endMetadata()
            .build());
    cluster.advance(Duration.ofSeconds(10));
    assertEquals(List.of(), recorder.propagations);
  }

  @Test
  void aRefusedPairHoldsThePropagationUntilItsRetrySucceeds() {
    SyncerHarness cluster = pacedCluster(2);
    cluster.start().advance(Duration.ofSeconds(10));
    List<String> refusedOnce = new ArrayList<>();
    cluster.serverAnswers(
        secret -> {
          String ns = secret.getMetadata().getNamespace();
          if (ns.equals("ns-1") && !refusedOnce.contains(ns)) {
            refusedOnce.add(ns);
            return new Answer.Refused(503, "Unavailable", "later");
          }
          return Answer.APPLIED;
        });
    cluster.source("acme-pull", config("quay.io/acme", "acme", "rotated"));
    cluster.advance(Duration.ofSeconds(10));
    // ns-0 at 0.5 s, ns-1 refused at 1.5 s, retried a second later.
    assertEquals(List.of(Duration.ofMillis(2500)), recorder.propagations);
  }

  @Test
  void aNamespaceDeletedMidwayNoLongerHoldsThePropagation() {
    SyncerHarness cluster = pacedCluster(3);
    cluster.start().advance(Duration.ofSeconds(10));
    cluster.source("acme-pull", config("quay.io/acme", "acme", "rotated"));
    cluster.advanceSeconds(0.6);
    cluster.deleteNamespace("ns-2");
    cluster.deleteNamespace("ns-1");
    assertEquals(List.of(Duration.ofMillis(500)), recorder.propagations);
    assertEquals(0, cluster.syncer().queueDepth());
  }

  @Test
  void aGatedPodsWaitIsMeasuredOnceFromItsNoticeToItsReleaseTakenNotAtARefusal() {
    SyncerHarness cluster =
        new SyncerHarness(
            SyncerHarness.noResync().withReleasesGates(true), recorder, new AppliedHashes());
    cluster.applyNamespace("ns-0");
    cluster.source("acme-pull", config("quay.io/acme", "acme", "s3cret"));
    cluster.resource(
        alternative("acme", RewritePolicy.ALWAYS, null, repository(0, FOO, "acme-pull")));
    cluster.start().advance(Duration.ofSeconds(10));
    cluster.releasesAnswered(new Answer.Refused(503, "ServiceUnavailable", "later"));
    io.fabric8.kubernetes.api.model.Pod pod =
        SyncerHarness.pod("ns-0", "web", ACME, "Pending", FOO + ":1.0");
    pod.getSpec()
        .setSchedulingGates(
            List.of(
                new io.fabric8.kubernetes.api.model.PodSchedulingGate(
                    io.kuik.model.PullSecretGate.NAME)));
    Instant noticed = cluster.now();
    cluster.pod(pod);
    cluster.advance(Duration.ofMillis(700));
    assertEquals(1, cluster.releases().size());
    assertEquals(List.of(), recorder.released, "refused: not released yet");

    cluster.releasesAnswered(Answer.APPLIED);
    cluster.advance(Duration.ofSeconds(10));

    List<Instant> sent = cluster.releasedAt();
    assertEquals(2, sent.size());
    assertEquals(List.of(Duration.between(noticed, sent.get(1))), recorder.released);
  }
}
