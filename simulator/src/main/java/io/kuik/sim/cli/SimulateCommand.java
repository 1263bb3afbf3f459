package io.kuik.sim.cli;

import io.kuik.cli.KuikSubcommand;
import io.kuik.sim.bench.Benchmark;
import io.kuik.sim.explore.ExploreMain;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code kuik simulate}: the simulated cluster's tools, in the simulator's runnable jar (the
 * controller's image does not carry them). Each subcommand hands its arguments to the tool's own
 * parser, which prints its usage on a bad argument.
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

  @Override
  public Integer call() {
    System.err.println("name one of: explore, replay, bench (kuik simulate --help)");
    return 2;
  }

  @Command(
      name = "explore",
      mixinStandardHelpOptions = true,
      description =
          "Seeded random actions and faults with invariants checked after every step:"
              + " --seed N --steps K [--seeds M]. Exits 1 when a run breaks an invariant.")
  static final class Explore implements Callable<Integer> {
    // The tool parses its own arguments: picocli hands them over as they are.
    @Unmatched List<String> args = new ArrayList<>();

    @Override
    public Integer call() {
      return ExploreMain.run(prepend("explore", args));
    }
  }

  @Command(
      name = "replay",
      mixinStandardHelpOptions = true,
      description = "Runs one seed of the explorer again, exactly: --seed N --steps K.")
  static final class Replay implements Callable<Integer> {
    @Unmatched List<String> args = new ArrayList<>();

    @Override
    public Integer call() {
      return ExploreMain.run(prepend("replay", args));
    }
  }

  @Command(
      name = "bench",
      mixinStandardHelpOptions = true,
      description =
          "The syncer against a periodic copier and a Secret replicator on one simulated hour,"
              + " per cluster size: [SIZE ...] [--only=kuik,kuik-unpaced,copier,replicator].")
  static final class Bench implements Callable<Integer> {
    @Unmatched List<String> args = new ArrayList<>();

    @Override
    public Integer call() {
      Benchmark.main(args.toArray(String[]::new));
      return 0;
    }
  }

  private static String[] prepend(String command, List<String> args) {
    String[] all = new String[args.size() + 1];
    all[0] = command;
    for (int i = 0; i < args.size(); i++) {
      all[i + 1] = args.get(i);
    }
    return all;
  }
}
