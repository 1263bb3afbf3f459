package io.kuik.sim.explore;

import io.kuik.sim.check.Violation;
import io.kuik.sim.dsl.KuikWorld;
import io.kuik.sim.time.SimRandom;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.trace.Target;
import io.kuik.sim.trace.TraceRecord;
import io.kuik.sim.world.ApiException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A VOPR-style explorer (after TigerBeetle's,
 * https://github.com/tigerbeetle/tigerbeetle/blob/main/src/vopr.zig): from one seed, printed first
 * in a banner with the action mix drawn from it ({@link ActionMix}), a safety phase of random steps
 * of people's actions and faults on a small kuik world ({@link Draw}, {@link Action}), each
 * followed by a random stretch of virtual time and a check of every safety invariant ({@link
 * Checks}); then a liveness phase that heals every fault, runs the world for {@link
 * Bounds#LIVENESS_PHASE} and checks that everything needed is in place. The same seed, step count
 * and syncer grace always give the same trace ({@link Outcome#traceHash}); a run's steps are kept
 * as a {@link Script} that replays it exactly, and a failing one ends with the command line that
 * replays it, and can be shrunk ({@link Shrinker}) and kept as a regression ({@link ScriptFile}).
 *
 * <p>Fault model: the faults of the {@code io.kuik.sim.faults} modules that a correct syncer must
 * survive: crashes and restarts at any step boundary, watch events lost, late or expired, API
 * outages (503) of at most {@link Bounds#MAX_FAULT_WINDOW}, registries down, the admission policy
 * or its binding deleted for such a window (the syncer must then write nothing). Each fault window
 * is noted in the trace, where the checkers see it. The policy never fails to evaluate: every
 * refused syncer write is a violation.
 */
public final class Explorer {

  public static final String INSTALL = "kuik-system";
  static final List<String> NAMESPACES = List.of("team-a", "team-b", "team-c", "team-d");
  static final List<String> RESOURCES = List.of("r1", "r2", "r3", "r4");
  static final List<String> SOURCES = List.of("src-a", "src-b");

  /**
   * The provider every run has: its cloud issues tokens valid {@link Bounds#PROVIDER_TOKENS}, and
   * the Always resource {@link #PROVIDED} injects them in every namespace.
   */
  static final String PLUGIN = "ecr-credential-provider";

  static final String ECR = "123456789012.dkr.ecr.eu-west-1.amazonaws.com";
  static final String PROVIDED = "rp";
  private static final int LOG_TAIL = 40;
  private static final int STORY_TAIL = 60;

  /** How a run ended: the first violation if any, the trace hash, a report, and its script. */
  public record Outcome(
      long seed,
      int steps,
      Duration syncerGrace,
      String banner,
      Optional<Violation> violation,
      String traceHash,
      String report,
      Script script) {
    public boolean passed() {
      return violation.isEmpty();
    }

    /** How many of its steps did something. */
    public int actions() {
      return script.actions();
    }

    /** The arguments of {@code kuik} that replay this run's seed, trace hash included. */
    public List<String> replayArguments() {
      return Explorer.replayArguments(seed, steps, syncerGrace);
    }
  }

  private final long seed;
  private final int steps;
  private final Duration syncerGrace;
  private final KuikWorld world;
  private final SimRandom drops;
  private final ActionMix mix;
  private final Installation installation;
  private final Checks checks;

  /** Null when the run is drawn from the seed; else the steps it replays. */
  private final Script replayed;

  private final String origin;
  private final Draw draw;
  private final List<Script.Step> ran = new ArrayList<>();
  private final List<String> log = new ArrayList<>();
  private List<Action> setup = List.of();
  private int step;

  private Explorer(long seed, int steps, Duration syncerGrace, Script replayed, String origin) {
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
    this.replayed = replayed;
    this.origin = origin;
    this.world = new KuikWorld(seed);
    this.drops = world.random("explorer-watch-drops");
    this.mix = ActionMix.draw(world.random("explorer-mix"));
    this.installation = Installation.draw(world.random("explorer-install"));
    this.draw = new Draw(world, world.random("explorer"), mix);
    this.checks = new Checks(world);
  }

  /**
   * A run of {@code steps} steps from {@code seed}, its syncer given {@code syncerGrace} (whole
   * minutes) while the checkers expect the documented grace: another grace checks the checkers.
   */
  public static Explorer of(long seed, int steps, Duration syncerGrace) {
    return new Explorer(seed, steps, syncerGrace, null, null);
  }

  /**
   * A run of a script's steps, exactly as they are written, on a world from its seed.
   *
   * @param origin where the script comes from, for the report's replay command; null if nowhere
   */
  static Explorer replaying(Script script, String origin) {
    return new Explorer(script.seed(), script.steps().size(), script.syncerGrace(), script, origin);
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
    String run =
        (replayed == null ? "explore" : "replay " + (origin == null ? "of a script" : origin))
            + " seed="
            + seed
            + " steps="
            + steps
            + " syncer-grace="
            + syncerGrace.toMinutes()
            + "m";
    return (replayed == null
            ? run + "\n  mix: " + mix
            : run + " (" + replayed.actions() + " actions)")
        + "\n  install: "
        + installation.describe();
  }

  /** Sets the world up, runs the steps with a safety check after each, then the liveness phase. */
  public Outcome run() {
    stage();
    setup = replayed == null ? draw.setup() : replayed.setup();
    setup.forEach(action -> action.run(world, drops));
    log("setup", "namespaces team-a..c, resources r1 r2, sources src-a src-b");
    world.pass(Duration.ofSeconds(5));
    Optional<Violation> found = checks.safety();
    step = 0;
    while (found.isEmpty() && step < steps) {
      step++;
      Script.Step next = replayed == null ? null : replayed.steps().get(step - 1);
      Action action = next == null ? draw.next() : next.action();
      act(action);
      Duration advance = next == null ? draw.advance() : next.advance();
      ran.add(new Script.Step(action, advance));
      world.pass(advance);
      found = checks.safety();
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
        world.history().hash(),
        found.map(this::report).orElse(summary()),
        new Script(seed, syncerGrace, setup, ran));
  }

  // ---- the world ---------------------------------------------------------------------------

  /** What every run starts from: kuik installed, the sources' first credentials, the images. */
  private void stage() {
    world.providers().issues(PLUGIN, ECR, Bounds.PROVIDER_TOKENS);
    world.providers().declare(PLUGIN, "*.dkr.ecr.*.amazonaws.com");
    world.providers().minValidity(Bounds.PROVIDER_MIN_VALIDITY);
    for (int tag = 1; tag <= 3; tag++) {
      world.actions().registryServesAnonymously(ECR, List.of(ECR + "/" + PROVIDED + "/app:" + tag));
    }
    world.install().install(installation.release(), INSTALL, installation.values());
    if (installation.beside() != null) {
      world
          .install()
          .installBeside(
              installation.beside(), installation.besideNamespace(), installation.besideValues());
    }
    if (!syncerGrace.equals(Bounds.DOCUMENTED_GRACE)) {
      world.install().restartSyncerWithGrace(syncerGrace);
    }
    for (String source : SOURCES) {
      new Action.RotateSource(source, 1).run(world, drops);
    }
    // Every image a pod may use exists, so pods start and stop pulling (a quieter trace).
    for (String r : RESOURCES) {
      List<String> quay = new ArrayList<>();
      for (int tag = 1; tag <= 3; tag++) {
        quay.add("quay.io/" + r + "/app:" + tag);
        quay.add("quay.io/" + r + "/db:" + tag);
        world
            .actions()
            .registryServesAnonymously("ghcr.io", List.of("ghcr.io/shared/" + r + ":" + tag));
      }
      world.actions().registryServesAnonymously("quay.io", quay);
    }
    world
        .objects()
        .createResource(
            "ImageAlternative",
            PROVIDED,
            "spec:\n  rewritePolicy: Always\n  alternatives:\n  - repository: "
                + ECR
                + "/"
                + PROVIDED
                + "/app\n    auth: {provider: "
                + PLUGIN
                + ", injectPullSecret: true}\n");
  }

  private void act(Action action) {
    if (action instanceof Action.Skip) {
      return;
    }
    String outcome = "";
    try {
      if (action.applies(world)) {
        action.run(world, drops);
      } else {
        outcome = "  -> not applicable here";
      }
    } catch (ApiException refused) {
      outcome = "  -> refused " + refused.code();
    }
    log(String.valueOf(step), action.describe() + outcome);
  }

  private Optional<Violation> liveness() {
    log("heal", "every fault heals; the world runs for " + Bounds.LIVENESS_PHASE);
    world.faults().registryUp("quay.io");
    world.faults().registryUp("ghcr.io");
    world.faults().healSyncerWatches("every fault heals");
    world.faults().policyBack();
    world.faults().syncerRestarts();
    world.pass(Bounds.LIVENESS_PHASE);
    return checks.liveness();
  }

  // ---- the log and the report -----------------------------------------------------------------

  private void log(String label, String what) {
    log.add(String.format("%5s  +%s  %s", label, elapsed(world.elapsed()), what));
  }

  private static String elapsed(Duration d) {
    long s = d.toSeconds();
    return String.format("%02d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60);
  }

  private String summary() {
    return "  passed: "
        + steps
        + " steps, "
        + elapsed(world.elapsed())
        + " of virtual time, "
        + world.history().records().size()
        + " trace records, trace hash "
        + world.history().hash();
  }

  private String report(Violation violation) {
    StringBuilder out =
        new StringBuilder("VIOLATION ")
            .append(
                step == 0
                    ? "after the setup"
                    : step > steps ? "in the liveness phase" : "after step " + step)
            .append(" (+")
            .append(elapsed(world.elapsed()))
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
    out.append("reproduce: ").append(launcher()).append(' ');
    if (replayed == null) {
      out.append(String.join(" ", replayArguments(seed, steps, syncerGrace)));
    } else {
      out.append("simulate replay --script ").append(origin == null ? "<the script>" : origin);
    }
    return out.append("   (trace hash ").append(world.history().hash()).append(')').toString();
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
  private List<String> storyOf(Target target) {
    List<String> out = new ArrayList<>();
    for (TraceRecord r : world.history().records()) {
      boolean about =
          r instanceof TraceRecord.Request request
              && request.kind() != RequestKind.LIST
              && request.kind() != RequestKind.WATCH
              && request.target().equals(target);
      boolean context = r instanceof Note;
      if (about || context) {
        out.add(world.history().line(r));
      }
    }
    return out;
  }
}
