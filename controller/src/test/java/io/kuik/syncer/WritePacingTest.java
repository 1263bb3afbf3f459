package io.kuik.syncer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.kuik.model.DockerConfig;
import io.kuik.model.ObservedNamespace;
import io.kuik.model.RegistryCredential;
import io.kuik.model.ResourceId;
import io.kuik.model.RewrittenPod;
import io.kuik.model.RoutingResources;
import io.kuik.model.Validated;
import io.kuik.model.crd.AuthSpec;
import io.kuik.model.crd.DestinationSpec;
import io.kuik.model.crd.ImageMirror;
import io.kuik.model.crd.ImageMirrorSpec;
import io.kuik.model.crd.PullSpec;
import io.kuik.model.crd.SecretRefSpec;
import io.kuik.ports.InformerView;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The core's own write limit and the resync spread, on a fake clock that jumps to each wake-up the
 * core asks for: no thread, no sleep.
 */
@Tag("slow") // thousands of pairs: left out of the mutation run (-Pmutation)
class WritePacingTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /** The defaults without the resync ({@code --resync-period 0s}). */
  private static SyncerSettings noResync() {
    return SyncerSettings.defaults("kuik-system").withResyncPeriod(Duration.ZERO);
  }

  @ParameterizedTest(name = "{0} pairs at {1}/s, burst {2}")
  @CsvSource({"1000, 20, 50", "1000, 100, 10", "30, 20, 50"})
  void aBurstOfPairsTakesWhatTheBucketAllows(int namespaces, double qps, int burst) {
    World world = new World(namespaces, noResync().withWriteLimit(qps, burst));

    world.start();
    world.runUntilIdle();

    assertEquals(namespaces, world.applies.size());
    double expected = Math.max(0, namespaces - burst) / qps;
    double took = seconds(world.applies.get(0), world.applies.get(world.applies.size() - 1));
    assertEquals(expected, took, 0.05, "seconds from the first apply to the last");
    assertTrue(world.peakPerSecond() <= burst + qps, "peak " + world.peakPerSecond());
  }

  @Test
  void reconcilesThatNeedNoWriteTakeNoToken() {
    World world = new World(200, noResync().withWriteLimit(1, 1));
    world.start();
    world.runUntilIdle();
    int before = world.applies.size();
    Instant quiet = world.now;

    // A namespace event re-reconciles every pair; nothing changed, so nothing is written or paced.
    world.namespaces.keySet().forEach(ns -> world.handle(new Input.NamespaceChanged(ns)));
    world.runUntilIdle();

    // At most the wait for one token (1 s here), not one token per pair (200 s).
    assertEquals(before, world.applies.size());
    assertTrue(seconds(quiet, world.now) <= 1.0, "took " + seconds(quiet, world.now));
  }

  @Test
  void aResyncSpreadsItsPairsOverTheWindow() {
    Duration window = Duration.ofMinutes(10);
    World world =
        new World(
            600,
            SyncerSettings.defaults("kuik-system")
                .withWriteLimit(1000, 1000)
                .withResyncPeriod(window));
    world.start();
    world.runUntil(T0.plus(window));
    world.applies.clear();

    world.runUntil(T0.plus(window.multipliedBy(2)));

    assertEquals(600, world.applies.size(), "every pair applied once in the window");
    int[] perMinute = new int[10];
    for (Instant at : world.applies) {
      double s = seconds(T0.plus(window), at);
      perMinute[(int) Math.min(9, s / 60)]++;
    }
    for (int count : perMinute) {
      assertTrue(count > 30 && count < 90, "about 60 a minute, got " + List.of(perMinute));
    }
  }

  /**
   * The chart's proportions with fewer pairs: 540 pairs owe a forced apply every 10 minutes at the
   * resync's 1 write/s (nine tenths of its share), and the start's pass takes about 5 minutes at
   * 2/s. The slots that fall due during that pass are served on time, within the resync's share,
   * instead of piling up behind it: served after it, they made a backlog that a resync at nine
   * tenths of its share clears at a tenth of a pair a second, and a pair waited 81 s past its
   * window.
   */
  @Test
  void everyPairIsAppliedAgainWithinItsWindowFromTheStartOn() {
    Duration period = Duration.ofMinutes(10);
    World world =
        new World(
            540,
            SyncerSettings.defaults("kuik-system")
                .withWriteLimit(2, 1)
                .withResyncPeriod(period)
                .withResyncShare(0.5));
    world.start();
    world.runUntil(T0.plus(period.multipliedBy(5)));

    assertEquals(period, world.syncer.resyncPeriod(), "540 pairs fit in 10 minutes at 1/s");
    double longest = 0;
    for (List<Instant> applied : world.appliesIn.values()) {
      for (int i = 1; i < applied.size(); i++) {
        longest = Math.max(longest, seconds(applied.get(i - 1), applied.get(i)));
      }
    }
    assertEquals(540, world.appliesIn.size());
    assertTrue(
        longest <= period.toSeconds() + 15,
        "no pair waits more than its window and a few seconds, got " + longest + " s");
  }

  @Test
  void aZeroPeriodNeverResyncs() {
    World world = new World(300, noResync().withWriteLimit(1000, 1000));
    world.start();
    world.runUntil(T0.plus(Duration.ofHours(2)));

    assertEquals(300, world.applies.size(), "the start's pass, and nothing after it");
    assertTrue(world.timers.isEmpty(), "no timer left: the core waits for nothing");
  }

  /**
   * 600 pairs at --api-qps 2 and --resync-share 0.5 (1 write/s for the resync) need 600 s, twice
   * the 5-minute period: the resync stretches to 10 minutes, never sends more than its share, and a
   * new namespace meanwhile gets its Secret at once from the rest of the budget.
   */
  @Test
  void aResyncThatDoesNotFitInItsPeriodStretchesAndLeavesTheRestOfTheBudgetToEvents() {
    Duration period = Duration.ofMinutes(5);
    World world =
        new World(
            600,
            SyncerSettings.defaults("kuik-system")
                .withWriteLimit(2, 1)
                .withResyncPeriod(period)
                .withResyncShare(0.5));
    world.start();
    // The start's pass: 600 applies at 2/s, and resync slots that fall due meanwhile take their
    // share (1/s) before it. The first resync, a period after the start, stretches the period.
    world.runUntil(T0.plus(period).minusMillis(1));
    assertEquals(period, world.syncer.resyncPeriod(), "not stretched before a resync");
    world.runUntil(T0.plus(period));
    assertEquals(Duration.ofMinutes(10), world.syncer.resyncPeriod(), "600 pairs at 1/s");
    world.runUntil(T0.plusSeconds(540));
    assertEquals(600, world.lastApplyIn.size(), "every pair applied once after the start");
    world.applies.clear();
    Instant resync = world.now;

    world.runUntil(resync.plusSeconds(100));
    world.namespaces.put("new-ns", new ObservedNamespace("new-ns", Map.of(), false));
    Instant created = world.now;
    world.handle(new Input.NamespaceChanged("new-ns"));
    world.runUntil(resync.plus(Duration.ofMinutes(15)));

    Instant firstWrite = world.firstApplyIn.get("new-ns");
    assertTrue(
        firstWrite != null && seconds(created, firstWrite) <= 2,
        "the new namespace's Secret within a few seconds, got " + firstWrite);
    // The stretched window is exactly what the share allows (600 pairs at 1/s), with no room for
    // the slots that bunch: the pairs the start's pass applied last come back up to 3 minutes
    // late, as they did before the core owned the resync's ticks
    // (docs/decisions/0050-resync-owned-by-the-core.md).
    long resynced =
        world.namespaces.keySet().stream()
            .filter(ns -> !ns.equals("new-ns"))
            .filter(ns -> world.lastApplyIn.get(ns).isAfter(resync))
            .count();
    assertEquals(600, resynced, "every pair applied again within one and a half stretched periods");
    for (int minute = 0; minute < 15; minute++) {
      Instant from = resync.plus(Duration.ofMinutes(minute));
      long inMinute =
          world.applies.stream()
              .filter(at -> !at.isBefore(from) && at.isBefore(from.plus(Duration.ofMinutes(1))))
              .count();
      // 1/s for the resync, its burst of 1, the new namespace's one apply.
      assertTrue(inMinute <= 62, "minute " + minute + ": " + inMinute + " applies");
    }
  }

  @Test
  void aStretchedResyncIsOneWarningThatSaysWhatToRaiseAndItsReturnOneInfoLine() {
    java.util.logging.Logger pacer = java.util.logging.Logger.getLogger(Pacer.class.getName());
    List<java.util.logging.LogRecord> lines = new ArrayList<>();
    java.util.logging.Handler capture =
        new java.util.logging.Handler() {
          @Override
          public void publish(java.util.logging.LogRecord record) {
            if (record.getLevel().intValue() >= java.util.logging.Level.INFO.intValue()) {
              lines.add(record);
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    java.util.logging.Level level = pacer.getLevel();
    pacer.setLevel(java.util.logging.Level.INFO); // the tests' logging shows warnings only
    pacer.addHandler(capture);
    pacer.setUseParentHandlers(false);
    try {
      Duration period = Duration.ofMinutes(5);
      World world =
          new World(
              600,
              SyncerSettings.defaults("kuik-system")
                  .withWriteLimit(2, 1)
                  .withResyncPeriod(period)
                  .withResyncShare(0.5));
      world.start();
      world.runUntil(T0.plus(Duration.ofMinutes(14)));

      assertEquals(1, lines.size(), "one line however many passes stay stretched");
      assertEquals(java.util.logging.Level.WARNING, lines.get(0).getLevel());
      assertEquals(
          "resync stretched to every 10m instead of every 5m: 600 pairs at 1 writes/s"
              + " (--resync-share 0.5 of --api-qps 2) do not fit in the period; raise --api-qps"
              + " or --resync-share to shorten it",
          text(lines.get(0)));

      for (int i = 200; i < 600; i++) {
        world.namespaces.remove("ns-" + i);
        world.handle(new Input.NamespaceDeleted("ns-" + i));
      }
      world.runUntil(T0.plus(Duration.ofMinutes(40)));

      assertEquals(2, lines.size(), lines.stream().map(WritePacingTest::text).toList().toString());
      assertEquals(java.util.logging.Level.INFO, lines.get(1).getLevel());
      assertEquals("resync back to every 5m", text(lines.get(1)));
      assertEquals(period, world.syncer.resyncPeriod());
    } finally {
      pacer.removeHandler(capture);
      pacer.setUseParentHandlers(true);
      pacer.setLevel(level);
    }
  }

  /** A line as the CLIs' layouts write its message: durations as {@code 10m}. */
  private static String text(java.util.logging.LogRecord record) {
    Object[] shown =
        record.getParameters() == null ? new Object[0] : record.getParameters().clone();
    for (int i = 0; i < shown.length; i++) {
      if (shown[i] instanceof Duration d) {
        shown[i] = io.kuik.model.Durations.text(d);
      }
    }
    return java.text.MessageFormat.format(record.getMessage(), shown);
  }

  @Test
  void aResyncThatFitsInItsPeriodKeepsIt() {
    Duration period = Duration.ofMinutes(10);
    World world =
        new World(
            600,
            SyncerSettings.defaults("kuik-system").withWriteLimit(20, 50).withResyncPeriod(period));
    world.start();
    world.runUntil(T0.plus(period).plusSeconds(1)); // through the first resync

    assertEquals(period, world.syncer.resyncPeriod(), "600 pairs at 10/s fit in 10 minutes");
  }

  @Test
  void theOffsetOfAPairIsFixedAndWithinTheWindow() {
    Duration window = Duration.ofMinutes(10);
    Pair pair = new Pair(new ResourceId(io.kuik.model.RoutingKind.IMAGE_MIRROR, "m"), "ns-1");
    Duration offset = ResyncSlots.offsetWithin(pair, window);
    assertEquals(offset, ResyncSlots.offsetWithin(pair, window));
    assertTrue(!offset.isNegative() && offset.compareTo(window) < 0);
    assertEquals(Duration.ZERO, ResyncSlots.offsetWithin(pair, Duration.ZERO));
  }

  private static double seconds(Instant from, Instant to) {
    return Duration.between(from, to).toNanos() / 1e9;
  }

  /**
   * One Always mirror selecting every namespace, and an executor of the core's effects that the
   * test runs by hand: every apply is taken, its answer handed back after the timer that sent it.
   */
  private static final class World implements InformerView, Effect.Executor {
    Instant now = T0;
    final TreeMap<Instant, List<Timer>> timers = new TreeMap<>();
    final List<Instant> applies = new ArrayList<>();
    final Map<String, Instant> lastApplyIn = new TreeMap<>();
    final Map<String, Instant> firstApplyIn = new TreeMap<>();
    final Map<String, List<Instant>> appliesIn = new TreeMap<>();
    final Map<String, ObservedNamespace> namespaces = new TreeMap<>();
    final List<Input> answers = new ArrayList<>();
    final Validated mirror;
    final Secret source;
    final SecretSyncer syncer;

    World(int count, SyncerSettings settings) {
      for (int i = 0; i < count; i++) {
        String name = "ns-" + i;
        namespaces.put(name, new ObservedNamespace(name, Map.of(), false));
      }
      ImageMirror resource = new ImageMirror();
      resource.setMetadata(new ObjectMetaBuilder().withName("mirror").withUid("u-1").build());
      resource.setSpec(
          new ImageMirrorSpec(
              null,
              null,
              "Always",
              new DestinationSpec(
                  "registry.example.com/mirror/",
                  new PullSpec(new AuthSpec(new SecretRefSpec("mirror-read"), null, null)))));
      mirror = RoutingResources.from(resource);
      String json =
          new DockerConfig(
                  Map.of("registry.example.com/mirror", RegistryCredential.basic("u", "p")))
              .toJson();
      source =
          new SecretBuilder()
              .withNewMetadata()
              .withName("mirror-read")
              .withNamespace("kuik-system")
              .endMetadata()
              .withType("kubernetes.io/dockerconfigjson")
              .addToData(
                  ".dockerconfigjson",
                  Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8)))
              .build();
      syncer = new SecretSyncer(settings, this);
    }

    void start() {
      handle(new Input.Started());
      answerAll();
    }

    void handle(Input input) {
      syncer.handle(input, now).forEach(effect -> effect.carryOut(this));
    }

    @Override
    public void apply(Effect.ApplySecret apply) {
      String namespace = apply.pair().namespace();
      applies.add(now);
      lastApplyIn.put(namespace, now);
      firstApplyIn.putIfAbsent(namespace, now);
      appliesIn.computeIfAbsent(namespace, ns -> new ArrayList<>()).add(now);
      answers.add(new Input.ApplyAnswered(apply, Answer.APPLIED));
    }

    @Override
    public void write(Effect.WriteStatus write) {
      answers.add(new Input.StatusAnswered(write, Answer.APPLIED));
    }

    @Override
    public void record(Effect.RecordEvent event) {}

    @Override
    public void release(Effect.ReleaseGate release) {} // no gated pod here

    @Override
    public void tryCredential(Effect.TryCredential trial) {} // a trial is no API write

    @Override
    public void mint(Effect.MintCredential mint) {} // no provider entry here

    @Override
    public void store(Effect.StoreProviderCredential store) {}

    @Override
    public void wakeAt(Effect.WakeAt wake) {
      timers.computeIfAbsent(wake.timer().at(), at -> new ArrayList<>()).add(wake.timer());
    }

    void runUntil(Instant end) {
      while (!timers.isEmpty() && !timers.firstKey().isAfter(end)) {
        fireFirst();
      }
      now = end;
    }

    void runUntilIdle() {
      while (!timers.isEmpty()) {
        fireFirst();
      }
    }

    private void fireFirst() {
      Map.Entry<Instant, List<Timer>> first = timers.pollFirstEntry();
      if (first.getKey().isAfter(now)) {
        now = first.getKey();
      }
      first.getValue().forEach(timer -> handle(new Input.TimerFired(timer)));
      answerAll();
    }

    private void answerAll() {
      List<Input> due = List.copyOf(answers);
      answers.clear();
      due.forEach(this::handle);
    }

    int peakPerSecond() {
      int peak = 0;
      for (int i = 0, j = 0; i < applies.size(); i++) {
        while (Duration.between(applies.get(j), applies.get(i)).compareTo(Duration.ofSeconds(1))
            >= 0) {
          j++;
        }
        peak = Math.max(peak, i - j + 1);
      }
      return peak;
    }

    @Override
    public Collection<Validated> routingResources() {
      return List.of(mirror);
    }

    @Override
    public Optional<Validated> routingResource(ResourceId id) {
      return mirror.id().equals(id) ? Optional.of(mirror) : Optional.empty();
    }

    @Override
    public Collection<ObservedNamespace> namespaces() {
      return namespaces.values();
    }

    @Override
    public Optional<ObservedNamespace> namespace(String name) {
      return Optional.ofNullable(namespaces.get(name));
    }

    @Override
    public Collection<RewrittenPod> pods(String namespace) {
      return List.of();
    }

    @Override
    public Optional<Secret> clusterSecret(String name) {
      return source.getMetadata().getName().equals(name) ? Optional.of(source) : Optional.empty();
    }
  }
}
