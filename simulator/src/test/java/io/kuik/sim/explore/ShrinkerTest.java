package io.kuik.sim.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Shrinking on a run the checkers catch: seed 12, 40 steps, a syncer given a 10-minute grace while
 * the checkers expect the documented 15.
 */
class ShrinkerTest {

  private static final Explorer.Outcome FAILING =
      Explorer.exploreWithSyncerGrace(12, 40, Duration.ofMinutes(10));

  @Test
  void aFailingRunShrinksToFewerActionsThatBreakTheSameInvariantAndNoneOfWhichCanGo() {
    assertFalse(FAILING.passed(), "seed 12 no longer fails with a 10-minute grace: pick another");
    String invariant = FAILING.violation().orElseThrow().invariant();

    Shrinker.Result shrunk = Shrinker.shrink(FAILING);

    assertEquals(FAILING.actions(), shrunk.before());
    assertTrue(shrunk.after() < shrunk.before(), shrunk.before() + " -> " + shrunk.after());
    assertFalse(shrunk.exhausted(), "the replay budget ran out");
    Explorer.Outcome replayed = Explorer.replaying(shrunk.script(), null).run();
    assertEquals(invariant, replayed.violation().orElseThrow().invariant(), replayed.report());
    List<Integer> actions = shrunk.script().actionIndices();
    for (int gone : actions) {
      Set<Integer> others = new HashSet<>(actions);
      others.remove(gone);
      Explorer.Outcome without = Explorer.replaying(shrunk.script().keeping(others), null).run();
      assertFalse(
          without.violation().map(v -> v.invariant().equals(invariant)).orElse(false),
          "step " + gone + " could go as well:\n" + without.report());
    }
  }

  @Test
  void aPassingRunHasNothingToShrink() {
    Explorer.Outcome passing = Explorer.explore(2, 10);
    assertTrue(passing.passed(), passing::report);

    assertEquals(
        "the run passed",
        org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> Shrinker.shrink(passing))
            .getMessage());
  }
}
