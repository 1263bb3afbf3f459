package io.kuik.sim.explore;

import io.kuik.sim.check.Violation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Shrinks a failing explorer run to the fewest actions that still fail the same way: the same
 * invariant broken, on a world from the same seed. First the steps after the failing one go (they
 * never ran); then delta debugging (Zeller and Hildebrandt, "Simplifying and Isolating
 * Failure-Inducing Input", IEEE TSE 2002) takes actions out in halves, quarters, ... down to one at
 * a time, replaying each candidate deterministically, until no single action can go; last, each run
 * of actionless steps becomes one wait, if the run still fails so. An action taken out leaves its
 * step in place ({@link Action.Skip}), so that time passes and the checks fall as before.
 */
public final class Shrinker {

  /** The replays a shrink may spend before it settles for what it has. */
  static final int BUDGET = 400;

  /** The shrunk script, how many actions it had and has, and how many replays it took. */
  public record Result(Script script, int before, int after, int replays, boolean exhausted) {}

  private final String invariant;
  private final int budget;
  private int replays;

  private Shrinker(String invariant, int budget) {
    this.invariant = invariant;
    this.budget = budget;
  }

  /**
   * Shrinks the script of a failing run.
   *
   * @throws IllegalArgumentException when the outcome passed: there is nothing to shrink
   */
  public static Result shrink(Explorer.Outcome failing) {
    return shrink(failing, BUDGET);
  }

  static Result shrink(Explorer.Outcome failing, int budget) {
    Violation violation =
        failing.violation().orElseThrow(() -> new IllegalArgumentException("the run passed"));
    return new Shrinker(violation.invariant(), budget).run(failing.script());
  }

  private Result run(Script script) {
    int before = script.actions();
    List<Integer> kept = script.actionIndices();
    if (fails(script, List.of())) {
      kept = List.of(); // the setup alone fails
    }
    int n = 2;
    while (kept.size() >= 2 && replays < budget) {
      List<List<Integer>> chunks = split(kept, n);
      Optional<List<Integer>> smaller = Optional.empty();
      for (List<Integer> chunk : chunks) {
        if (fails(script, chunk)) {
          smaller = Optional.of(chunk);
          n = 2;
          break;
        }
      }
      if (smaller.isEmpty() && n > 2) {
        for (List<Integer> chunk : chunks) {
          List<Integer> complement = new ArrayList<>(kept);
          complement.removeAll(chunk);
          if (fails(script, complement)) {
            smaller = Optional.of(complement);
            n = Math.max(n - 1, 2);
            break;
          }
        }
      }
      if (smaller.isPresent()) {
        kept = smaller.get();
      } else if (n < kept.size()) {
        n = Math.min(2 * n, kept.size());
      } else {
        break;
      }
    }
    Script shrunk = script.keeping(new HashSet<>(kept));
    Script compacted = shrunk.compacted();
    if (replays < budget && failsAsBefore(compacted)) {
      shrunk = compacted;
    }
    return new Result(shrunk, before, shrunk.actions(), replays, replays >= budget);
  }

  /**
   * With two chunks the complement of one is the other, so complements are tried only from three
   * chunks on.
   */
  private static List<List<Integer>> split(List<Integer> items, int n) {
    List<List<Integer>> chunks = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < n; i++) {
      int end = start + (items.size() - start) / (n - i);
      chunks.add(new ArrayList<>(items.subList(start, end)));
      start = end;
    }
    return chunks;
  }

  private boolean fails(Script script, List<Integer> kept) {
    Set<Integer> keep = new HashSet<>(kept);
    return replays < budget && failsAsBefore(script.keeping(keep));
  }

  private boolean failsAsBefore(Script candidate) {
    replays++;
    Explorer.Outcome outcome = Explorer.replaying(candidate, null).run();
    return outcome.violation().map(v -> v.invariant().equals(invariant)).orElse(false);
  }
}
