package io.kuik.sim.explore;

import io.kuik.model.RegistryCredential;
import io.kuik.sim.check.Convergence;
import io.kuik.sim.check.CredentialsStayInScope;
import io.kuik.sim.check.Invariant;
import io.kuik.sim.check.NoSyncerRequestRefused;
import io.kuik.sim.check.NotReleasedBeforeTheGrace;
import io.kuik.sim.check.ReleasedWhenTheGraceEnds;
import io.kuik.sim.check.SecretsReadOnlyInInstallNamespace;
import io.kuik.sim.check.SyncerNeverDeletes;
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
 * A VOPR-style explorer (after TigerBeetle's,
 * https://github.com/tigerbeetle/tigerbeetle/blob/main/src/vopr.zig): from one seed, a random
 * sequence of steps of people's actions and faults on a small kuik world, each followed by a random
 * stretch of virtual time and a check of every safety invariant; then a liveness phase that heals
 * every fault, runs the world for {@link Bounds#LIVENESS_PHASE} and checks that everything needed
 * is in place. The actions come from a weighted table whose weights are drawn from the seed and
 * printed in the banner ({@link ActionMix}). The same seed, step count and syncer grace always give
 * the same trace ({@link Outcome#traceHash}), and a report ends with the command line that replays
 * it.
 *
 * <p>Fault model: only faults a correct syncer must survive: crashes and restarts at any step
 * boundary, watch events lost, late or expired (the informers relist when a drop window heals, as a
 * client whose broken stream times out), API outages (503) of at most {@link
 * Bounds#MAX_FAULT_WINDOW}, registries down. Each fault window is noted in the trace, where the
 * checkers see it. No admission policy faults: every refused syncer write is a violation.
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
      long seed,
      int steps,
      Duration syncerGrace,
      String banner,
      Optional<Violation> violation,
      String traceHash,
      String report) {
    public boolean passed() {
      return violation.isEmpty();
    }

    /** The arguments of {@code kuik} that replay this run, trace hash included. */
    public List<String> replayArguments() {
      return Explorer.replayArguments(seed, steps, syncerGrace);
    }
  }

  private final long seed;
  private final int steps;
  private final Duration syncerGrace;
  private final KuikWorld world;
  private final SimRandom random;
  private final SimRandom drops;
  private final Trace trace;
  private final ActionMix mix;
  private final List<String> log = new ArrayList<>();
  private final List<Invariant> invariants;
  private final Map<String, Integer> rotations = new LinkedHashMap<>();

  private int cursor;
  private int pods;
  private int step;

  private Explorer(long seed, int steps, Duration syncerGrace) {
    if (steps < 0) {
      throw new IllegalArgumentException("steps must be zero or more, not " + steps);
    }
    if (syncerGrace.isNegative() || syncerGrace.toSeconds() % 60 != 0) {
      throw new IllegalArgumentException(
          "the syncer's grace must be whole minutes, as the command line gives it: " + syncerGrace);
    }
    this.seed = seed;
    this.steps = steps;
    this.syncerGrace = syncerGrace;
    this.world = new KuikWorld(seed);
    this.random = world.cluster().loop().fork("explorer");
    this.drops = world.cluster().loop().fork("explorer-watch-drops");
    this.mix = ActionMix.draw(table(), world.cluster().loop().fork("explorer-mix"));
    this.trace = world.cluster().trace();
    this.invariants =
        List.of(
            new CredentialsStayInScope(
                "syncer", Bounds.DOCUMENTED_GRACE, Bounds.SLACK, Bounds.STALENESS),
            new NotReleasedBeforeTheGrace(
                "syncer", INSTALL, Bounds.DOCUMENTED_GRACE, Bounds.RELIST),
            new ReleasedWhenTheGraceEnds(
                "syncer",
                INSTALL,
                Bounds.DOCUMENTED_GRACE,
                Bounds.GRACE_END_MARGIN,
                Bounds.RELIST,
                Bounds.AFTERMATH),
            new NoSyncerRequestRefused("syncer"),
            new SyncerNeverDeletes("syncer"),
            new SecretsReadOnlyInInstallNamespace("syncer", INSTALL));
  }

  /**
   * A run of {@code steps} steps from {@code seed}, its syncer given {@code syncerGrace} (whole
   * minutes) while the checkers expect the documented grace: another grace checks the checkers.
   */
  public static Explorer of(long seed, int steps, Duration syncerGrace) {
    return new Explorer(seed, steps, syncerGrace);
  }

  /** One run of {@code steps} steps from {@code seed}, with the syncer as released. */
  public static Outcome explore(long seed, int steps) {
    return of(seed, steps, Bounds.DOCUMENTED_GRACE).run();
  }

  /**
   * A run whose syncer is given another grace than the documented one, while the checkers still
   * expect the documented one: a syncer that keeps credentials too long or drops them too soon, to
   * show the checkers catch it.
   */
  public static Outcome exploreWithSyncerGrace(long seed, int steps, Duration grace) {
    return of(seed, steps, grace).run();
  }

  /** {@code simulate replay --seed N --steps K [--syncer-grace-minutes G]}: the same trace. */
  public static List<String> replayArguments(long seed, int steps, Duration syncerGrace) {
    List<String> args =
        new ArrayList<>(
            List.of("simulate", "replay", "--seed", Long.toString(seed), "--steps", "" + steps));
    if (!syncerGrace.equals(Bounds.DOCUMENTED_GRACE)) {
      args.addAll(List.of("--syncer-grace-minutes", Long.toString(syncerGrace.toMinutes())));
    }
    return args;
  }

  /** The seed, the options and the action mix drawn from the seed: printed before the run. */
  public String banner() {
    return "explore seed="
        + seed
        + " steps="
        + steps
        + " syncer-grace="
        + syncerGrace.toMinutes()
        + "m\n  mix: "
        + mix;
  }

  /** Runs the steps, then the liveness phase. */
  public Outcome run() {
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
    return new Outcome(
        seed,
        steps,
        syncerGrace,
        banner(),
        found,
        trace.hash(),
        found.map(this::report).orElse(summary()));
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
    log("setup", "namespaces team-a..c, resources r1 r2, sources src-a src-b");
    world.pass(Duration.ofSeconds(5));
  }

  /** The explorer's actions and their base weights (even: a weight may be halved), in order. */
  private List<ActionMix.Action> table() {
    ActionMix.Kind action = ActionMix.Kind.ACTION;
    ActionMix.Kind fault = ActionMix.Kind.FAULT;
    return List.of(
        new ActionMix.Action("create-resource", action, 12, this::createResource),
        new ActionMix.Action("change-resource", action, 16, this::changeResource),
        new ActionMix.Action("delete-resource", action, 6, this::deleteResource),
        new ActionMix.Action("create-namespace", action, 6, this::createNamespace),
        new ActionMix.Action("label-namespace", action, 16, this::labelNamespace),
        new ActionMix.Action("delete-namespace", action, 4, this::deleteNamespace),
        new ActionMix.Action("rewrite-pod", action, 36, this::rewritePod),
        new ActionMix.Action("delete-pod", action, 16, this::deletePod),
        new ActionMix.Action("container-exits", action, 10, this::containerExits),
        new ActionMix.Action("rotate-source", action, 10, this::rotateSource),
        new ActionMix.Action("person-deletes-secret", action, 10, this::personDeletesSecret),
        new ActionMix.Action("nothing", action, 12, () -> attempt("nothing happens", () -> {})),
        new ActionMix.Action("registry-down-or-up", fault, 6, this::registryDownOrUp),
        // Under 2 % of steps crash the syncer on average, at most 4 %: more, and the
        // restart-leftover exemption hides most of what the safety checker is for.
        new ActionMix.Action("syncer-crashes", fault, 2, this::syncerCrashes),
        new ActionMix.Action(
            "syncer-crashes-and-restarts", fault, 2, this::syncerCrashesAndRestarts),
        new ActionMix.Action("drop-watch-events", fault, 10, this::dropWatchEvents),
        new ActionMix.Action("delay-watch-events", fault, 8, this::delayWatchEvents),
        new ActionMix.Action("expire-watches", fault, 6, this::expireWatches),
        new ActionMix.Action("api-outage", fault, 8, this::apiOutage));
  }

  private void act() {
    SyncerHost syncer = world.syncer();
    if (!syncer.running() && random.chance(0.35)) {
      attempt("syncer starts", syncer::start);
      return;
    }
    mix.pick(random)
        .ifPresentOrElse(action -> action.act().run(), () -> attempt("nothing happens", () -> {}));
  }

  private void createResource() {
    String r = random.pick(RESOURCES);
    attempt(
        "create resource " + r, () -> world.createResource("ImageAlternative", r, randomSpec(r)));
  }

  private void changeResource() {
    pickResource()
        .ifPresent(
            r -> {
              String spec = randomSpec(r);
              attempt(
                  "change resource " + r + " " + summarize(spec),
                  () -> world.changeResource("ImageAlternative", r, spec));
            });
  }

  private void deleteResource() {
    pickResource()
        .ifPresent(
            r ->
                attempt("delete resource " + r, () -> world.deleteResource("ImageAlternative", r)));
  }

  private void createNamespace() {
    String ns = random.pick(NAMESPACES);
    Map<String, String> labels = randomLabels();
    attempt("create namespace " + ns + " " + labels, () -> world.createNamespace(ns, labels));
  }

  private void labelNamespace() {
    pickActiveNamespace()
        .ifPresent(
            ns -> {
              String tier = random.pick(List.of("prod", "dev", "test"));
              attempt(
                  "label namespace " + ns + " tier=" + tier,
                  () -> world.labelNamespace(ns, "tier", tier));
            });
  }

  private void deleteNamespace() {
    pickActiveNamespace()
        .ifPresent(ns -> attempt("delete namespace " + ns, () -> world.deleteNamespace(ns)));
  }

  private void deletePod() {
    pickPod(false)
        .ifPresent(
            p -> attempt("delete pod " + p[0] + "/" + p[1], () -> world.deletePod(p[0], p[1])));
  }

  private void containerExits() {
    int exitCode = random.chance(0.5) ? 0 : 1;
    pickRunningPod()
        .ifPresent(
            p ->
                attempt(
                    "the container of pod " + p[0] + "/" + p[1] + " exits " + exitCode,
                    () -> world.containerExits(p[0], p[1], exitCode)));
  }

  private void rotateSource() {
    String source = random.pick(SOURCES);
    attempt("rotate source " + source, () -> rotate(source));
  }

  private void personDeletesSecret() {
    pickManagedSecret()
        .ifPresent(
            s ->
                attempt(
                    "person deletes " + s[0] + "/" + s[1], () -> world.deleteSecret(s[0], s[1])));
  }

  private void registryDownOrUp() {
    String host = random.pick(List.of("quay.io", "ghcr.io"));
    if (random.chance(0.5)) {
      attempt("registry " + host + " down", () -> world.registryDown(host));
    } else {
      attempt("registry " + host + " up", () -> world.registryUp(host));
    }
  }

  private void syncerCrashes() {
    attempt("syncer crashes", world.syncer()::crash);
  }

  private void syncerCrashesAndRestarts() {
    attempt(
        "syncer crashes and restarts",
        () -> {
          world.syncer().crash();
          world.syncer().start();
        });
  }

  private void dropWatchEvents() {
    Duration window = faultWindow();
    attempt(
        "watch events to the syncer dropped (p=0.5) for " + window,
        () -> {
          world.api().watches().faults().dropRandomly(syncerWatches(), 0.5, drops);
          noteFault("WATCH-FAULT", "dropped (p=0.5) for " + window);
          healWatchesAfter(window);
        });
  }

  private void delayWatchEvents() {
    Duration window = faultWindow();
    Duration extra = Duration.ofSeconds(1 + random.nextInt(20));
    attempt(
        "watch events to the syncer delayed " + extra + " for " + window,
        () -> {
          world.api().watches().faults().delay(syncerWatches(), extra);
          noteFault("WATCH-FAULT", "delayed " + extra + " for " + window);
          healWatchesAfter(window);
        });
  }

  private void expireWatches() {
    attempt("the syncer's watches expire", () -> world.api().watches().expire(syncerWatches()));
  }

  private void apiOutage() {
    Duration window = faultWindow();
    attempt(
        "api-server outage (503) for " + window,
        () -> world.cluster().outages().apiServerUnavailable(window));
  }

  /** Fault windows are noted in the trace, as the outages note theirs, for the checkers. */
  private void noteFault(String action, String what) {
    trace.note(world.now(), "fault", action, "syncer watches", what);
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
              noteFault("WATCH-HEALED", "faults cleared, watches expired");
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
    noteFault("WATCH-HEALED", "every fault heals");
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
    out.append("reproduce: ")
        .append(launcher())
        .append(' ')
        .append(String.join(" ", replayArguments(seed, steps, syncerGrace)))
        .append("   (trace hash ")
        .append(trace.hash())
        .append(')');
    return out.toString();
  }

  /**
   * How to start {@code kuik} from here: {@code java -jar} and this jar when the explorer runs from
   * the simulator's runnable jar, else {@code kuik} (the same jar, as the README builds it).
   */
  private static String launcher() {
    try {
      java.net.URL location = Explorer.class.getProtectionDomain().getCodeSource().getLocation();
      java.nio.file.Path path = java.nio.file.Path.of(location.toURI());
      if (path.getFileName().toString().endsWith(".jar")) {
        return "java -jar " + path;
      }
    } catch (RuntimeException | java.net.URISyntaxException unknown) {
      // no code source (a custom class loader): fall back to the name the README gives it
    }
    return "kuik";
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
