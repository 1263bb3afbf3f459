package io.kuik.sim.explore;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The explorer's command line.
 *
 * <pre>
 * explore --seed N --steps K [--seeds M]   runs seeds N .. N+M-1 (M defaults to 1)
 * replay  --seed N --steps K               runs one seed again and prints its report
 * --syncer-grace-minutes G                 gives the syncer another grace than the documented
 *                                          one (the checkers keep 15 min): a check of the checker
 * </pre>
 *
 * Each run prints its banner first; a failing run prints the violation, the last actions and the
 * storyline of the Secret involved. The exit status is 1 when any run failed, 2 on bad arguments.
 */
public final class ExploreMain {

  private ExploreMain() {}

  public static void main(String[] args) {
    int status;
    try {
      status = run(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println(
          "usage: explore --seed N --steps K [--seeds M] | replay --seed N --steps K");
      status = 2;
    }
    System.exit(status);
  }

  public static int run(String[] args) {
    if (args.length == 0) {
      throw new IllegalArgumentException("missing command");
    }
    long seed = 1;
    int steps = 150;
    int seeds = 1;
    Duration grace = Bounds.DOCUMENTED_GRACE;
    for (int i = 1; i < args.length; i += 2) {
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("missing value after " + args[i]);
      }
      String value = args[i + 1];
      switch (args[i]) {
        case "--seed":
          seed = Long.parseLong(value);
          break;
        case "--steps":
          steps = Integer.parseInt(value);
          break;
        case "--seeds":
          seeds = Integer.parseInt(value);
          break;
        case "--syncer-grace-minutes":
          grace = Duration.ofMinutes(Long.parseLong(value));
          break;
        default:
          throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (args[0].equals("replay")) {
      seeds = 1;
    } else if (!args[0].equals("explore")) {
      throw new IllegalArgumentException("unknown command " + args[0]);
    }
    List<Long> failed = new ArrayList<>();
    for (long s = seed; s < seed + seeds; s++) {
      System.out.println(Explorer.banner(s, steps));
      Explorer.Outcome outcome = Explorer.exploreWithSyncerGrace(s, steps, grace);
      System.out.println(outcome.report());
      if (!outcome.passed()) {
        failed.add(s);
      }
    }
    if (seeds > 1) {
      System.out.println(
          (seeds - failed.size())
              + " of "
              + seeds
              + " seeds passed"
              + (failed.isEmpty() ? "" : "; failed: " + failed));
    }
    return failed.isEmpty() ? 0 : 1;
  }
}
