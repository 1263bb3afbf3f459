package io.kuik.sim.explore;

import io.kuik.model.RegistryCredential;
import io.kuik.sim.check.Convergence;
import io.kuik.sim.check.CredentialsStayInScope;
import io.kuik.sim.check.Invariant;
import io.kuik.sim.check.NoWriteRefusedByPolicy;
import io.kuik.sim.check.SecretsReadOnlyInInstallNamespace;
import io.kuik.sim.check.Violation;
import io.kuik.sim.check.WorldView;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.hosts.SyncerHost;
import io.kuik.sim.time.SimRandom;
import io.kuik.sim.trace.Trace;
import io.kuik.sim.trace.TraceRecord;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.watch.WatchInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import tools.jackson.databind.node.ObjectNode;

/**
 * A VOPR-style explorer (STYLE.md): from one seed, a random sequence of steps of people's actions
 * and faults on a small kuik world, each followed by a random stretch of virtual time and a check
 * of every safety invariant; then a liveness phase that heals every fault, runs the world for
 * {@link Bounds#LIVENESS_PHASE} and checks that everything needed is in place. The same seed and
 * step count always give the same trace ({@link Outcome#traceHash}), so {@link #replay} reproduces
 * a failure exactly.
 *
 * <p>Fault model: only faults a correct syncer must survive: crashes and restarts at any step
 * boundary, watch events lost, late or expired (the informers relist when a drop window heals, as a
 * client whose broken stream times out), API outages (503) of at most {@link
 * Bounds#MAX_FAULT_WINDOW}, registries down. No admission policy faults: every refused syncer write
 * is a violation.
 */
public final class Explorer {

  public static final String INSTALL = "kuik-system";
  static final List<String> NAMESPACES = List.of("team-a", "team-b", "team-c", "team-d");
  static final List<String> RESOURCES = List.of("r1", "r2", "r3", "r4");
  static final List<String> SOURCES = List.of("src-a", "src-b");
  private static final int LOG_TAIL = 40;
  private static final int STORY_TAIL = 60;

  /** How a run ended: the first violation if any, the trace hash and a report to print. */
  public record Outcome(
      long seed, int steps, Optional<Violation> violation, String traceHash, String report) {
    public boolean passed() {
      return violation.isEmpty();
    }
  }

  private final long seed;
  private final int steps;
  private final Duration syncerGrace;
  private final KuikWorld world;
  private final SimRandom random;
  private final SimRandom drops;
  private final Trace trace;
  private final List<String> log = new ArrayList<>();
  private final List<Invariant> invariants;
  private final Map<String, Integer> rotations = new LinkedHashMap<>();

  /**
   * Drawn from the seed, as VOPR draws its options: how many steps in a hundred crash the syncer (0
   * to 4). Runs without crashes keep every Secret checked; runs with them explore restarts, whose
   * leftovers the safety checker must exempt.
   */
  private final int crashPercent;

  private int cursor;
  private int pods;
  private int step;

  private Explorer(long seed, int steps, Duration syncerGrace) {
    this.seed = seed;
    this.steps = steps;
    this.syncerGrace = syncerGrace;
    this.world = new KuikWorld(seed);
    this.random = world.cluster().loop().fork("explorer");
    this.drops = world.cluster().loop().fork("explorer-watch-drops");
    this.crashPercent = world.cluster().loop().fork("explorer-options").nextInt(5);
    this.trace = world.cluster().trace();
    this.invariants =
        List.of(
            new CredentialsStayInScope(
                "syncer",
                Bounds.DOCUMENTED_GRACE,
                Bounds.SLACK,
                Bounds.MAX_FAULT_WINDOW.plusMinutes(1)),
            new NoWriteRefusedByPolicy("syncer"),
            new SecretsReadOnlyInInstallNamespace("syncer", INSTALL));
  }

  /** One run of {@code steps} steps from {@code seed}, with the syncer as released. */
  public static Outcome explore(long seed, int steps) {
    return new Explorer(seed, steps, Bounds.DOCUMENTED_GRACE).run();
  }

  /** Runs the same seed and step count again: the same trace, byte for byte. */
  public static Outcome replay(long seed, int steps) {
    return explore(seed, steps);
  }

  /**
   * A run whose syncer is given another grace than the documented one, while the checkers still
   * expect the documented one: a syncer that keeps credentials too long, to show the safety checker
   * catches it.
   */
  public static Outcome exploreWithSyncerGrace(long seed, int steps, Duration grace) {
    return new Explorer(seed, steps, grace).run();
  }

  public static String banner(long seed, int steps) {
    return "explore seed=" + seed + " steps=" + steps;
  }

  private Outcome run() {
    setUp();
    Optional<Violation> found = checkAll();
    for (step = 1; step <= steps && found.isEmpty(); step++) {
      act();
      world.pass(advance());
      found = checkAll();
    }
    if (found.isEmpty()) {
      step = steps + 1;
      found = liveness();
    }
    return new Outcome(seed, steps, found, trace.hash(), found.map(this::report).orElse(summary()));
  }

  // ---- the world ---------------------------------------------------------------------------

  private void setUp() {
    world.install(INSTALL);
    if (!syncerGrace.equals(Bounds.DOCUMENTED_GRACE)) {
      world.restartSyncerWithGrace(syncerGrace);
    }
    for (String source : SOURCES) {
      rotate(source);
    }
    // Every image a pod may use exists, so pods start and stop pulling (a quieter trace).
    for (String r : RESOURCES) {
      List<String> quay = new ArrayList<>();
      for (int tag = 1; tag <= 3; tag++) {
        quay.add("quay.io/" + r + "/app:" + tag);
        quay.add("quay.io/" + r + "/db:" + tag);
        world.registryServesAnonymously("ghcr.io", List.of("ghcr.io/shared/" + r + ":" + tag));
      }
      world.registryServesAnonymously("quay.io", quay);
    }
    for (String ns : NAMESPACES.subList(0, 3)) {
      world.createNamespace(ns, randomLabels());
    }
    for (String r : RESOURCES.subList(0, 2)) {
      world.createResource("ImageAlternative", r, randomSpec(r));
    }
    log(
        "setup",
        "namespaces team-a..c, resources r1 r2, sources src-a src-b; the syncer crashes in "
            + crashPercent
            + "% of steps");
    world.pass(Duration.ofSeconds(5));
  }

  private void act() {
    SyncerHost syncer = world.syncer();
    if (!syncer.running() && random.chance(0.35)) {
      attempt("syncer starts", syncer::start);
      return;
    }
    int roll = random.nextInt(100);
    if (roll < 6) {
      String r = random.pick(RESOURCES);
      attempt(
          "create resource " + r, () -> world.createResource("ImageAlternative", r, randomSpec(r)));
    } else if (roll < 14) {
      pickResource()
          .ifPresent(
              r -> {
                String spec = randomSpec(r);
                attempt(
                    "change resource " + r + " " + summarize(spec),
                    () -> world.changeResource("ImageAlternative", r, spec));
              });
    } else if (roll < 17) {
      pickResource()
          .ifPresent(
              r ->
                  attempt(
                      "delete resource " + r, () -> world.deleteResource("ImageAlternative", r)));
    } else if (roll < 20) {
      String ns = random.pick(NAMESPACES);
      Map<String, String> labels = randomLabels();
      attempt("create namespace " + ns + " " + labels, () -> world.createNamespace(ns, labels));
    } else if (roll < 28) {
      pickActiveNamespace()
          .ifPresent(
              ns -> {
                String tier = random.pick(List.of("prod", "dev", "test"));
                attempt(
                    "label namespace " + ns + " tier=" + tier,
                    () -> world.labelNamespace(ns, "tier", tier));
              });
    } else if (roll < 30) {
      pickActiveNamespace()
          .ifPresent(ns -> attempt("delete namespace " + ns, () -> world.deleteNamespace(ns)));
    } else if (roll < 48) {
      rewritePod();
    } else if (roll < 56) {
      pickPod(false)
          .ifPresent(
              p -> attempt("delete pod " + p[0] + "/" + p[1], () -> world.deletePod(p[0], p[1])));
    } else if (roll < 61) {
      int exitCode = random.chance(0.5) ? 0 : 1;
      pickRunningPod()
          .ifPresent(
              p ->
                  attempt(
                      "the container of pod " + p[0] + "/" + p[1] + " exits " + exitCode,
                      () -> world.containerExits(p[0], p[1], exitCode)));
    } else if (roll < 66) {
      String source = random.pick(SOURCES);
      attempt("rotate source " + source, () -> rotate(source));
    } else if (roll < 71) {
      pickManagedSecret()
          .ifPresent(
              s ->
                  attempt(
                      "person deletes " + s[0] + "/" + s[1], () -> world.deleteSecret(s[0], s[1])));
    } else if (roll < 74) {
      String host = random.pick(List.of("quay.io", "ghcr.io"));
      if (random.chance(0.5)) {
        attempt("registry " + host + " down", () -> world.registryDown(host));
      } else {
        attempt("registry " + host + " up", () -> world.registryUp(host));
      }
    } else if (roll < 78) {
      if (roll - 74 >= crashPercent) {
        attempt("nothing happens", () -> {});
      } else if (random.chance(0.5)) {
        attempt("syncer crashes", syncer::crash);
      } else {
        attempt(
            "syncer crashes and restarts",
            () -> {
              syncer.crash();
              syncer.start();
            });
      }
    } else if (roll < 83) {
      Duration window = faultWindow();
      attempt(
          "watch events to the syncer dropped (p=0.5) for " + window,
          () -> {
            world.api().watches().faults().dropRandomly(syncerWatches(), 0.5, drops);
            healWatchesAfter(window);
          });
    } else if (roll < 87) {
      Duration window = faultWindow();
      Duration extra = Duration.ofSeconds(1 + random.nextInt(20));
      attempt(
          "watch events to the syncer delayed " + extra + " for " + window,
          () -> {
            world.api().watches().faults().delay(syncerWatches(), extra);
            healWatchesAfter(window);
          });
    } else if (roll < 90) {
      attempt("the syncer's watches expire", () -> world.api().watches().expire(syncerWatches()));
    } else if (roll < 94) {
      Duration window = faultWindow();
      attempt(
          "api-server outage (503) for " + window,
          () -> world.cluster().outages().apiServerUnavailable(window));
    } else {
      attempt("nothing happens", () -> {});
    }
  }

  private void rewritePod() {
    Optional<String> ns = pickActiveNamespace();
    Optional<String> resource = pickResource();
    if (ns.isEmpty() || resource.isEmpty()) {
      return;
    }
    List<String> repositories = new ArrayList<>();
    view().resources().get(resource.get()).entries().forEach(e -> repositories.add(e.repository()));
    String image = random.pick(repositories) + ":" + (1 + random.nextInt(3));
    String pod = "pod-" + (++pods);
    String restartPolicy = random.pick(List.of("Always", "OnFailure", "Never"));
    attempt(
        "pod "
            + ns.get()
            + "/"
            + pod
            + " ("
            + restartPolicy
            + ") rewritten by "
            + resource.get()
            + " to "
            + image,
        () ->
            world.rewrittenPod(
                ns.get(), pod, "ImageAlternative/" + resource.get(), image, restartPolicy));
  }

  private void rotate(String source) {
    int n = rotations.merge(source, 1, Integer::sum);
    String user = source.substring(source.length() - 1);
    Map<String, RegistryCredential> auths = new LinkedHashMap<>();
    auths.put("quay.io", RegistryCredential.basic(user, "pw" + n));
    if (source.equals("src-a")) {
      // src-b holds nothing for ghcr.io: entries on it are left out, with a Warning event.
      auths.put("ghcr.io", RegistryCredential.basic(user + "-ghcr", "pw" + n));
    }
    world.dockerRegistrySecret(INSTALL, source, auths);
  }

  private void healWatchesAfter(Duration window) {
    world
        .cluster()
        .loop()
        .schedule(
            window,
            "explorer heals the syncer's watches",
            () -> {
              world.api().watches().faults().clear();
              world.api().watches().expire(syncerWatches());
            });
  }

  private Predicate<WatchInfo> syncerWatches() {
    Identity syncer = world.syncer().identity();
    return w -> w.identity().equals(syncer);
  }

  private Duration faultWindow() {
    return Duration.ofSeconds(10 + random.nextInt((int) Bounds.MAX_FAULT_WINDOW.toSeconds() - 9));
  }

  private Duration advance() {
    int roll = random.nextInt(100);
    if (roll < 70) {
      return Duration.ofSeconds(1 + random.nextInt(60));
    }
    if (roll < 93) {
      return Duration.ofSeconds(60 + random.nextInt(240));
    }
    return Duration.ofSeconds(300 + random.nextInt(900));
  }

  /** The spec on one line, for the action log. */
  private static String summarize(String specYaml) {
    return specYaml
        .replace("spec:\n", "")
        .replace("\n    auth:\n      secretRef: ", " ")
        .replaceAll("\\s+", " ")
        .trim();
  }

  private Map<String, String> randomLabels() {
    int roll = random.nextInt(3);
    return roll == 0 ? Map.of() : Map.of("tier", roll == 1 ? "prod" : "dev");
  }

  private String randomSpec(String resource) {
    StringBuilder yaml = new StringBuilder("spec:\n");
    yaml.append("  rewritePolicy: ")
        .append(random.chance(0.5) ? "Always" : "OnFailure")
        .append('\n');
    int selector = random.nextInt(3);
    if (selector == 1) {
      yaml.append("  namespaceSelector:\n    matchLabels: {tier: prod}\n");
    } else if (selector == 2) {
      yaml.append(
          "  namespaceSelector:\n    matchExpressions:\n"
              + "    - {key: tier, operator: In, values: [prod, dev]}\n");
    }
    yaml.append("  alternatives:\n");
    List<String> pool =
        List.of(
            "quay.io/" + resource + "/app",
            "quay.io/" + resource + "/db",
            "ghcr.io/shared/" + resource);
    boolean any = false;
    for (int i = 0; i < pool.size(); i++) {
      boolean last = i == pool.size() - 1;
      if (random.chance(0.6) || (last && !any)) {
        any = true;
        yaml.append("  - repository: ")
            .append(pool.get(i))
            .append("\n    auth:\n      secretRef: {name: ")
            .append(random.pick(SOURCES))
            .append("}\n");
      }
    }
    return yaml.toString();
  }

  // ---- picking from what exists --------------------------------------------------------------

  private WorldView view() {
    return WorldView.read(world.api().state(), INSTALL, world.now());
  }

  private Optional<String> pickResource() {
    List<String> names = new ArrayList<>(view().resources().keySet());
    return names.isEmpty() ? Optional.empty() : Optional.of(random.pick(names));
  }

  private Optional<String> pickActiveNamespace() {
    List<String> names = new ArrayList<>();
    view()
        .namespaces()
        .values()
        .forEach(
            ns -> {
              if (NAMESPACES.contains(ns.name()) && !ns.terminating()) {
                names.add(ns.name());
              }
            });
    return names.isEmpty() ? Optional.empty() : Optional.of(random.pick(names));
  }

  private Optional<String[]> pickPod(boolean liveOnly) {
    List<String[]> found = new ArrayList<>();
    for (WorldView.PodView pod : view().pods()) {
      if (pod.rewriter() != null && (!liveOnly || pod.live())) {
        found.add(new String[] {pod.namespace(), pod.name()});
      }
    }
    return found.isEmpty() ? Optional.empty() : Optional.of(random.pick(found));
  }

  /** A rewritten pod whose container runs now, as the kubelet sees it. */
  private Optional<String[]> pickRunningPod() {
    List<String[]> found = new ArrayList<>();
    for (WorldView.PodView pod : view().pods()) {
      if (pod.rewriter() != null
          && "Running".equals(world.cluster().kubelet().phase(pod.namespace(), pod.name()))) {
        found.add(new String[] {pod.namespace(), pod.name()});
      }
    }
    return found.isEmpty() ? Optional.empty() : Optional.of(random.pick(found));
  }

  private Optional<String[]> pickManagedSecret() {
    List<String[]> found = new ArrayList<>();
    for (ObjectNode s : world.api().state().list(ResourceType.SECRET, null)) {
      if (Meta.name(s).startsWith("kuik-inject-")) {
        found.add(new String[] {Meta.namespace(s), Meta.name(s)});
      }
    }
    return found.isEmpty() ? Optional.empty() : Optional.of(random.pick(found));
  }

  // ---- checking -------------------------------------------------------------------------------

  private Optional<Violation> checkAll() {
    List<TraceRecord> records = trace.records();
    List<TraceRecord> fresh = List.copyOf(records.subList(cursor, records.size()));
    cursor = records.size();
    WorldView view = view();
    Optional<Violation> first = Optional.empty();
    for (Invariant invariant : invariants) {
      List<Violation> found = invariant.check(view, fresh);
      if (first.isEmpty() && !found.isEmpty()) {
        first = Optional.of(found.get(0));
      }
    }
    return first;
  }

  private Optional<Violation> liveness() {
    log("heal", "every fault heals; the world runs for " + Bounds.LIVENESS_PHASE);
    world.registryUp("quay.io");
    world.registryUp("ghcr.io");
    world.api().watches().faults().clear();
    world.api().watches().expire(syncerWatches());
    world.syncer().start();
    world.pass(Bounds.LIVENESS_PHASE);
    Optional<Violation> safety = checkAll();
    if (safety.isPresent()) {
      return safety;
    }
    List<Violation> pending = Convergence.pending(view());
    if (pending.isEmpty()) {
      return Optional.empty();
    }
    StringBuilder all = new StringBuilder();
    for (Violation v : pending) {
      all.append("\n    still pending: ").append(v.message());
    }
    Violation first = pending.get(0);
    return Optional.of(
        new Violation(first.invariant(), pending.size() + " pending" + all, first.secretTarget()));
  }

  // ---- the log and the report -----------------------------------------------------------------

  private void attempt(String what, Runnable action) {
    String outcome = "";
    try {
      action.run();
    } catch (ApiException refused) {
      outcome = "  -> refused " + refused.code();
    }
    log(String.valueOf(step), what + outcome);
  }

  private void log(String label, String what) {
    log.add(String.format("%5s  +%s  %s", label, elapsed(world.cluster().loop().elapsed()), what));
  }

  private static String elapsed(Duration d) {
    long s = d.toSeconds();
    return String.format("%02d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60);
  }

  private String summary() {
    return "  passed: "
        + steps
        + " steps, "
        + elapsed(world.cluster().loop().elapsed())
        + " of virtual time, "
        + trace.size()
        + " trace records, trace hash "
        + trace.hash();
  }

  private String report(Violation violation) {
    StringBuilder out =
        new StringBuilder("VIOLATION ")
            .append(step > steps ? "in the liveness phase" : "after step " + step)
            .append(" (+")
            .append(elapsed(world.cluster().loop().elapsed()))
            .append("): ")
            .append(violation)
            .append('\n');
    out.append("last actions:\n");
    log.subList(Math.max(0, log.size() - LOG_TAIL), log.size())
        .forEach(line -> out.append(line).append('\n'));
    if (violation.secretTarget() != null) {
      out.append("storyline of ").append(violation.secretTarget()).append(":\n");
      List<String> story = storyOf(violation.secretTarget());
      story
          .subList(Math.max(0, story.size() - STORY_TAIL), story.size())
          .forEach(line -> out.append(line).append('\n'));
    }
    out.append("reproduce: Explorer.replay(")
        .append(seed)
        .append(", ")
        .append(steps)
        .append(") -> trace hash ")
        .append(trace.hash());
    return out.toString();
  }

  /** The trace lines about one Secret, with the syncer's starts and crashes and the outages. */
  private List<String> storyOf(String target) {
    List<String> out = new ArrayList<>();
    for (TraceRecord r : trace.records()) {
      boolean plumbing =
          r instanceof TraceRecord.WatchDelivery
              || r.action().equals("LIST")
              || r.action().equals("WATCH");
      boolean about = r.target().equals(target);
      boolean context = r instanceof TraceRecord.Note;
      if (!plumbing && (about || context)) {
        out.add(trace.line(r));
      }
    }
    return out;
  }
}
