package io.kuik.syncer;

import static io.kuik.syncer.SyncerHarness.alternative;
import static io.kuik.syncer.SyncerHarness.config;
import static io.kuik.syncer.SyncerHarness.pod;
import static io.kuik.syncer.SyncerHarness.repository;
import static io.kuik.syncer.SyncerHarness.selector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.ResourceId;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The applied-content hash, the forced resync, and where a spread resync places each pair. */
class ResyncAndHashTest {

  static final String FOO = "quay.io/acme/foo";
  static final String SECRET = "kuik-inject-imagealternative-acme";
  static final ResourceId ACME = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "acme");
  static final ResourceId BETA = new ResourceId(RoutingKind.IMAGE_ALTERNATIVE, "beta");

  private static void install(SyncerHarness cluster) {
    cluster.source("acme-pull", config("quay.io/acme", "acme", "s3cret"));
    cluster.resource(
        alternative(
            "acme",
            RewritePolicy.ALWAYS,
            selector("tier", "prod"),
            repository(0, FOO, "acme-pull")));
  }

  // ---- the hash -------------------------------------------------------------------------

  @Test
  void anEventThatChangesNothingCostsNoApply() {
    SyncerHarness cluster = SyncerHarness.withDefaults();
    cluster.applyNamespace("team-a", "tier=prod");
    install(cluster);
    cluster.start().advanceSeconds(2);
    long skipped = cluster.syncer().counters().appliesSkipped();

    cluster.applyNamespace("team-a", "tier=prod", "owner=alice");
    cluster.source("acme-pull", config("quay.io/acme", "acme", "s3cret"));
    cluster.advanceSeconds(2);

    assertEquals(1, cluster.applies().size());
    assertTrue(cluster.syncer().counters().appliesSkipped() > skipped);
  }

  /** The default settings: a resync every 10 minutes. */
  static final Duration TEN_MINUTES = Duration.ofMinutes(10);

  private static SyncerHarness withTheDefaultResync() {
    return new SyncerHarness(SyncerSettings.defaults(SyncerHarness.CLUSTER_RESOURCE_NAMESPACE));
  }

  @Test
  void aResyncAppliesAgainWhatTheHashWouldSkip() {
    SyncerHarness cluster = withTheDefaultResync();
    cluster.applyNamespace("team-a", "tier=prod");
    cluster.applyNamespace("team-b", "tier=dev");
    install(cluster);
    cluster.start().advanceSeconds(2);

    cluster.advance(TEN_MINUTES);

    assertEquals(2, cluster.applies("team-a").size(), "the written pair is applied again");
    assertEquals(
        cluster.applies("team-a").get(0).content(), cluster.applies("team-a").get(1).content());
    assertEquals(List.of(), cluster.applies("team-b"), "a pair that needs nothing writes nothing");
  }

  @Test
  void aSecretSomeoneDeletedStaysDeletedUntilTheResync() {
    SyncerHarness cluster = withTheDefaultResync();
    cluster.applyNamespace("team-a", "tier=prod");
    install(cluster);
    cluster.start().advanceSeconds(2);

    cluster.personDeletes("team-a", SECRET);
    cluster.applyNamespace("team-a", "tier=prod", "owner=alice");
    cluster.advanceSeconds(2);
    assertTrue(cluster.stored("team-a", SECRET).isEmpty(), "the hash says nothing changed");

    cluster.advance(TEN_MINUTES);
    assertTrue(cluster.stored("team-a", SECRET).isPresent());
  }

  @Test
  void anEventMergedIntoAWaitingResyncSlotDoesNotCostTheResyncItsForce() {
    SyncerHarness cluster = withTheDefaultResync();
    cluster.applyNamespace("team-a", "tier=prod");
    install(cluster);
    cluster.start().advanceSeconds(2);
    cluster.personDeletes("team-a", SECRET);
    Instant slot =
        new ResyncSlots(TEN_MINUTES, SyncerHarness.T0)
            .slotAtOrAfter(new Pair(ACME, "team-a"), cluster.now().plusSeconds(1));

    cluster.advance(Duration.between(cluster.now(), slot).minusMillis(200));
    cluster.applyNamespace("team-a", "tier=prod", "owner=alice"); // due after the slot
    assertTrue(cluster.stored("team-a", SECRET).isEmpty());
    cluster.advanceSeconds(2);

    assertTrue(cluster.stored("team-a", SECRET).isPresent());
    assertEquals(slot, cluster.applies("team-a").get(1).at(), "applied at its slot, forced");
  }

  /**
   * The hash only skips applies whose content the API server already holds: with the server
   * accepting every write and no one else writing these Secrets, a core that never skips writes the
   * same Secrets at every step, and Events, with more requests.
   */
  @Test
  void droppingTheHashChangesNoOutcomeOnlyTheNumberOfApplies() {
    Run withHash = run(new AppliedHashes());
    Run withoutHash =
        run(
            new AppliedHashes() {
              @Override
              Long last(Pair pair) {
                return null; // remembers nothing: every reconcile applies
              }
            });

    assertEquals(withHash.snapshots.size(), withoutHash.snapshots.size());
    for (int step = 0; step < withHash.snapshots.size(); step++) {
      assertEquals(withHash.snapshots.get(step), withoutHash.snapshots.get(step), "step " + step);
    }
    assertEquals(withHash.events, withoutHash.events);
    assertTrue(
        withHash.applies < withoutHash.applies,
        withHash.applies + " applies with the hash, " + withoutHash.applies + " without");
    assertTrue(withHash.snapshots.get(withHash.snapshots.size() - 1).size() > 1, "it wrote");
  }

  private record Run(List<Map<String, String>> snapshots, List<String> events, int applies) {}

  private static Run run(AppliedHashes hashes) {
    SyncerHarness cluster =
        new SyncerHarness(
            SyncerSettings.defaults(SyncerHarness.CLUSTER_RESOURCE_NAMESPACE),
            SyncerObserver.NONE,
            hashes);
    List<Consumer<SyncerHarness>> script =
        List.of(
            c -> c.applyNamespace("team-a", "tier=prod"),
            c -> c.applyNamespace("team-b", "tier=dev"),
            ResyncAndHashTest::install,
            c ->
                c.resource(
                    alternative(
                        "beta", RewritePolicy.ON_FAILURE, null, repository(0, FOO, "acme-pull"))),
            SyncerHarness::start,
            c -> c.applyNamespace("team-a", "tier=prod", "owner=alice"),
            c -> c.applyNamespace("team-b", "tier=prod"),
            c -> c.pod(pod("team-b", "web", BETA, "Running", FOO + ":1.0")),
            c -> c.source("acme-pull", config("quay.io/acme", "acme", "rotated")),
            c -> c.source("acme-pull", config("quay.io/acme", "acme", "rotated")),
            c -> c.advance(TEN_MINUTES),
            c -> c.pod(pod("team-b", "web", BETA, "Succeeded", FOO + ":1.0")),
            c -> c.advance(Duration.ofMinutes(16)),
            c -> c.applyNamespace("team-a", "tier=dev"),
            c ->
                c.resource(
                    alternative(
                        "acme",
                        RewritePolicy.ALWAYS,
                        null,
                        repository(0, FOO, "acme-pull"),
                        repository(1, "ghcr.io/acme/bar", "missing"))),
            c -> c.advance(TEN_MINUTES),
            c -> c.deleteNamespace("team-b"),
            c -> c.applyNamespace("team-c", "tier=prod"));
    List<Map<String, String>> snapshots = new ArrayList<>();
    for (Consumer<SyncerHarness> step : script) {
      step.accept(cluster);
      cluster.advanceSeconds(2);
      snapshots.add(cluster.storedJson());
    }
    List<String> events =
        cluster.events().stream().map(e -> e.at() + " " + e.reason() + " " + e.message()).toList();
    return new Run(snapshots, events, cluster.applies().size());
  }

  // ---- the resync spread ----------------------------------------------------------------

  static final Duration PERIOD = Duration.ofSeconds(10);

  private static SyncerHarness spreadOverThePeriod() {
    SyncerHarness cluster =
        new SyncerHarness(
            SyncerSettings.defaults(SyncerHarness.CLUSTER_RESOURCE_NAMESPACE)
                .withResyncPeriod(PERIOD));
    for (int i = 0; i < 20; i++) {
      cluster.applyNamespace("ns-" + i, "tier=prod");
    }
    install(cluster);
    cluster.start();
    return cluster;
  }

  /** The first apply to {@code namespace} after {@code after}. */
  private static Instant nextApply(SyncerHarness cluster, String namespace, Instant after) {
    return cluster.applies(namespace).stream()
        .map(SyncerHarness.Apply::at)
        .filter(at -> at.isAfter(after))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no apply to " + namespace + " after " + after));
  }

  /**
   * Issue 14: a Secret deleted right after its first apply came back 15.9 s later with a 10 s
   * resync. A new pair's first resync waited for the next tick and then its offset in the window.
   */
  @ParameterizedTest(name = "a namespace created {0} s into the resync period")
  @CsvSource({"0.3", "2.5", "5", "7.5", "9.9"})
  void aSecretDeletedRightAfterItsFirstApplyComesBackWithinOnePeriod(double phase) {
    SyncerHarness cluster = spreadOverThePeriod();
    cluster.advance(PERIOD.multipliedBy(3));
    cluster.advanceSeconds(phase);

    for (int i = 0; i < 10; i++) {
      String namespace = "new-" + i;
      cluster.applyNamespace(namespace, "tier=prod");
    }
    cluster.advanceSeconds(0.6); // the debounce: the first applies are sent
    Instant deleted = cluster.now();
    for (int i = 0; i < 10; i++) {
      cluster.personDeletes("new-" + i, SECRET);
    }
    cluster.advance(PERIOD.multipliedBy(3));

    for (int i = 0; i < 10; i++) {
      Duration back = Duration.between(deleted, nextApply(cluster, "new-" + i, deleted));
      assertTrue(back.compareTo(PERIOD) <= 0, "new-" + i + " came back after " + back);
    }
  }

  @ParameterizedTest(name = "a source rotated {0} s into the resync period")
  @CsvSource({"0.3", "2.5", "5", "7.5", "9.9"})
  void aSecretDeletedRightAfterAnEventsApplyComesBackWithinOnePeriod(double phase) {
    SyncerHarness cluster = spreadOverThePeriod();
    cluster.advance(PERIOD.multipliedBy(3));
    cluster.advanceSeconds(phase);

    cluster.source("acme-pull", config("quay.io/acme", "acme", "rotated"));
    cluster.advanceSeconds(0.6);
    Instant deleted = cluster.now();
    for (int i = 0; i < 20; i++) {
      cluster.personDeletes("ns-" + i, SECRET);
    }
    cluster.advance(PERIOD.multipliedBy(2));

    for (int i = 0; i < 20; i++) {
      Duration back = Duration.between(deleted, nextApply(cluster, "ns-" + i, deleted));
      assertTrue(back.compareTo(PERIOD) <= 0, "ns-" + i + " came back after " + back);
    }
  }

  @Test
  void everyWrittenPairIsAppliedAtLeastOncePerPeriodWhateverHappens() {
    SyncerHarness cluster = spreadOverThePeriod();
    Random random = new Random(7);
    for (int step = 0; step < 150; step++) {
      cluster.advance(Duration.ofMillis(random.nextInt(3000)));
      int ns = random.nextInt(25);
      switch (random.nextInt(3)) {
        case 0 -> cluster.applyNamespace("ns-" + ns, "tier=prod", "step=" + step);
        case 1 -> cluster.source("acme-pull", config("quay.io/acme", "acme", "p" + step));
        default -> cluster.personDeletes("ns-" + ns, SECRET);
      }
    }
    cluster.advance(PERIOD);

    Map<String, Instant> last = new HashMap<>();
    Duration longest = Duration.ZERO;
    for (SyncerHarness.Apply apply : cluster.applies()) {
      Instant before = last.put(apply.namespace(), apply.at());
      if (before != null) {
        Duration gap = Duration.between(before, apply.at());
        longest = gap.compareTo(longest) > 0 ? gap : longest;
      }
    }
    assertTrue(longest.compareTo(PERIOD) <= 0, "a pair went " + longest + " without an apply");
    assertTrue(last.size() >= 20, "pairs written: " + last.size());
  }

  @Test
  void aSpreadResyncAppliesEachWrittenPairOncePerPeriodAtItsOwnSlot() {
    SyncerHarness cluster = spreadOverThePeriod();
    cluster.advance(PERIOD.multipliedBy(2));
    int before = cluster.applies().size();
    Instant from = cluster.now();

    cluster.advance(PERIOD.multipliedBy(5));

    assertEquals(20 * 5, cluster.applies().size() - before, "one apply per pair and period");
    for (int i = 0; i < 20; i++) {
      List<Instant> times =
          cluster.applies("ns-" + i).stream()
              .map(SyncerHarness.Apply::at)
              .filter(at -> at.isAfter(from))
              .toList();
      for (int k = 1; k < times.size(); k++) {
        assertEquals(PERIOD, Duration.between(times.get(k - 1), times.get(k)), "ns-" + i);
      }
    }
  }
}
