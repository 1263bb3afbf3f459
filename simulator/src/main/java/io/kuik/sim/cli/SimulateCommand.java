package io.kuik.sim.cli;

import io.kuik.cli.KuikSubcommand;
import io.kuik.sim.bench.Benchmark;
import io.kuik.sim.bench.TokenBenchmark;
import io.kuik.sim.explore.Bounds;
import io.kuik.sim.explore.Explorer;
import io.kuik.sim.explore.Regressions;
import io.kuik.sim.explore.Shrinker;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.logging.Level;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kuik simulate}: the simulated cluster's tools, in the simulator's runnable jar (the
 * controller's image does not carry them). A bad argument exits 2 with a message naming it, as
 * every kuik command does; {@code explore} and {@code replay} exit 1 when a run breaks an
 * invariant. {@code explore --shrink} shrinks a failing run to the fewest actions that still fail,
 * and {@code --regressions DIR} keeps it there as a script that {@code replay --script} runs again
 * (the build replays the repository's, in {@value Regressions#FOLDER}).
 */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    description = "Runs the production syncer and webhook on the deterministic simulated cluster.",
    subcommands = {
      SimulateCommand.Explore.class,
      SimulateCommand.Replay.class,
      SimulateCommand.Bench.class
    })
public final class SimulateCommand implements KuikSubcommand {

  static final String VERBOSE =
      "Also print the simulated syncers' and webhook's own log lines (INFO and above) on standard"
          + " error. Without it only their errors are: the faults a run injects make them warn by"
          + " design, and the output already says what they did.";

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(
        spec.commandLine(), "Missing a command: name one of explore, replay, bench");
  }

  /** What one explorer run is: its seed, its length and the syncer's grace. */
  static final class RunOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--seed", paramLabel = "N", description = "The (first) seed. Default: 1.")
    long seed = 1;

    @Option(
        names = "--steps",
        paramLabel = "K",
        description = "Steps of actions and faults per run. Default: 150.")
    int steps = 150;

    @Option(
        names = "--syncer-grace-minutes",
        paramLabel = "G",
        description =
            "Give the syncer another grace than the documented 15 minutes; the checkers keep"
                + " 15: a check of the checkers.")
    long graceMinutes = Bounds.DOCUMENTED_GRACE.toMinutes();

    @Option(names = "--verbose", description = VERBOSE)
    boolean verbose;

    /** The syncer's grace, once the options are checked. */
    Duration validGrace() {
      if (steps < 0) {
        throw new ParameterException(spec.commandLine(), "--steps must be 0 or more: " + steps);
      }
      if (graceMinutes < 0) {
        throw new ParameterException(
            spec.commandLine(), "--syncer-grace-minutes must be 0 or more: " + graceMinutes);
      }
      return Duration.ofMinutes(graceMinutes);
    }
  }

  @Command(
      name = "explore",
      mixinStandardHelpOptions = true,
      description =
          "Seeded random actions and faults with invariants checked after every step, then a"
              + " liveness phase. Exits 1 when a run breaks an invariant.")
  static final class Explore implements Callable<Integer> {
    @Mixin RunOptions run;

    @Option(
        names = "--seeds",
        paramLabel = "M",
        description = "Runs the seeds N .. N+M-1. Default: 1.")
    int seeds = 1;

    @Option(
        names = "--shrink",
        description =
            "Shrink a failing run to the fewest actions that still break the same invariant"
                + " (delta debugging; each try a deterministic replay), and print its script.")
    boolean shrink;

    @Option(
        names = "--regressions",
        paramLabel = "DIR",
        description =
            "Shrink a failing run and keep its script in DIR as a regression (the repository's:"
                + " "
                + Regressions.FOLDER
                + ").")
    Path regressions;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      if (seeds < 1) {
        throw new ParameterException(spec.commandLine(), "--seeds must be 1 or more: " + seeds);
      }
      Keep keep = shrink || regressions != null ? new Keep(regressions) : null;
      try (SimulatedLogs logs = SimulatedLogs.at(run.verbose, Level.SEVERE)) {
        return runSeeds(
            spec.commandLine().getOut(), run.seed, seeds, run.steps, run.validGrace(), keep);
      }
    }
  }

  /** What to do with a failing run: shrink it, and keep it in {@code folder} unless null. */
  record Keep(Path folder) {}

  @Command(
      name = "replay",
      mixinStandardHelpOptions = true,
      description =
          "Runs one seed of the explorer again, exactly: the same trace and trace hash. Exits 1"
              + " when it breaks an invariant.")
  static final class Replay implements Callable<Integer> {
    @Mixin RunOptions run;

    @Option(
        names = "--script",
        paramLabel = "FILE",
        description =
            "Replay the steps a script holds (a regression, or a shrunk run) instead of a seed's;"
                + " --seed, --steps and --syncer-grace-minutes come from the script.")
    Path script;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      try (SimulatedLogs logs = SimulatedLogs.at(run.verbose, Level.SEVERE)) {
        return replay(out);
      }
    }

    private int replay(PrintWriter out) {
      if (script == null) {
        return runSeeds(out, run.seed, 1, run.steps, run.validGrace(), null);
      }
      String text;
      try {
        text = Files.readString(script);
      } catch (NoSuchFileException missing) {
        throw new ParameterException(spec.commandLine(), "--script " + script + ": no such file");
      } catch (IOException unreadable) {
        throw new ParameterException(
            spec.commandLine(),
            "--script " + script + ": cannot be read: " + unreadable.getMessage());
      }
      Explorer explorer;
      try {
        explorer = Regressions.replay(text, script.toString());
      } catch (IllegalArgumentException notAScript) {
        throw new ParameterException(spec.commandLine(), notAScript.getMessage());
      }
      out.println(explorer.banner());
      out.flush();
      Explorer.Outcome outcome = explorer.run();
      out.println(outcome.report());
      out.flush();
      return outcome.passed() ? 0 : 1;
    }
  }

  @Command(
      name = "bench",
      mixinStandardHelpOptions = true,
      description =
          "The syncer against imagepullsecret-patcher and kubernetes-replicator, as their"
              + " projects run them, on one simulated hour per cluster size.")
  static final class Bench implements Callable<Integer> {
    @Parameters(
        paramLabel = "SIZE",
        arity = "0..*",
        description = "Cluster sizes in namespaces. Default: 100 1000.")
    List<Integer> sizes = new ArrayList<>();

    @Option(
        names = "--only",
        split = ",",
        paramLabel = "CONTENDER",
        description =
            "Run only these contenders, of: kuik, kuik-first, kuik-5qps, patcher, replicator.")
    List<String> only = new ArrayList<>();

    @Option(names = "--verbose", description = VERBOSE)
    boolean verbose;

    @Option(
        names = "--tokens",
        description =
            "Instead: provider credentials against cron-refresh (a CronJob copying a new 12-hour"
                + " token every 6 hours) over 48 simulated hours, with and without outages; SIZE"
                + " is the number of namespaces (default 20).")
    boolean tokens;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      if (tokens) {
        try (SimulatedLogs logs = SimulatedLogs.at(verbose, Level.SEVERE)) {
          TokenBenchmark.run(sizes.isEmpty() ? 20 : sizes.get(0), System.out);
        }
        return 0;
      }
      for (int size : sizes) {
        if (size < 1) {
          throw new ParameterException(spec.commandLine(), "a SIZE must be 1 or more: " + size);
        }
      }
      for (String contender : only) {
        if (!Benchmark.CONTENDERS.contains(contender)) {
          throw new ParameterException(
              spec.commandLine(),
              "unknown contender '" + contender + "' in --only; one of " + Benchmark.CONTENDERS);
        }
      }
      try (SimulatedLogs logs = SimulatedLogs.at(verbose, Level.SEVERE)) {
        Benchmark.run(sizes.isEmpty() ? Benchmark.DEFAULT_SIZES : sizes, only, System.out);
      }
      return 0;
    }
  }

  /**
   * Runs the seeds, each banner first and its report after, a failing one shrunk and kept when
   * {@code keep} says so; 1 when any run failed.
   */
  private static int runSeeds(
      PrintWriter out, long first, int seeds, int steps, Duration grace, Keep keep) {
    List<Long> failed = new ArrayList<>();
    for (long seed = first; seed < first + seeds; seed++) {
      Explorer explorer = Explorer.of(seed, steps, grace);
      out.println(explorer.banner());
      out.flush();
      Explorer.Outcome outcome = explorer.run();
      out.println(outcome.report());
      out.flush();
      if (!outcome.passed()) {
        failed.add(seed);
        if (keep != null) {
          keep(out, outcome, keep);
        }
      }
    }
    if (seeds > 1) {
      out.println(
          (seeds - failed.size())
              + " of "
              + seeds
              + " seeds passed"
              + (failed.isEmpty() ? "" : "; failed: " + failed));
      out.flush();
    }
    return failed.isEmpty() ? 0 : 1;
  }

  private static void keep(PrintWriter out, Explorer.Outcome failing, Keep keep) {
    out.println("shrinking: replaying subsets of its " + failing.actions() + " actions");
    out.flush();
    Shrinker.Result shrunk = Shrinker.shrink(failing);
    out.println(
        "shrunk: "
            + shrunk.before()
            + " actions -> "
            + shrunk.after()
            + " in "
            + shrunk.replays()
            + " replays"
            + (shrunk.exhausted() ? " (the replay budget ran out)" : ""));
    if (keep.folder() == null) {
      out.print(Regressions.text(failing, shrunk));
    } else {
      out.println("kept as a regression: " + Regressions.write(keep.folder(), failing, shrunk));
    }
    out.flush();
  }
}
