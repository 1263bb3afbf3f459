package io.kuik.sim.explore;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * An explorer run as data: the seed and the syncer's grace it ran with, the setup it drew, and each
 * step's action with the virtual time that passed after it. Replaying a script gives the run's
 * trace again, byte for byte; a script whose steps are a subset of a run's (the others {@link
 * Action.Skip}, so that time passes and the checks fall as they did) replays as well, which is what
 * shrinking a failing run needs. A regression is a script kept in a file ({@link ScriptFile}).
 */
record Script(long seed, Duration syncerGrace, List<Action> setup, List<Script.Step> steps) {

  /** One step: its action, then {@code advance} of virtual time. */
  record Step(Action action, Duration advance) {
    Step {
      Objects.requireNonNull(action, "action");
      if (advance.isNegative()) {
        throw new IllegalArgumentException("a step cannot go back in time: " + advance);
      }
    }
  }

  Script {
    Objects.requireNonNull(syncerGrace, "syncerGrace");
    setup = List.copyOf(setup);
    steps = List.copyOf(steps);
  }

  /** How many steps do something (not a {@link Action.Skip}). */
  int actions() {
    return (int) steps.stream().filter(s -> !(s.action() instanceof Action.Skip)).count();
  }

  /** The indices of the steps that do something, in order. */
  List<Integer> actionIndices() {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      if (!(steps.get(i).action() instanceof Action.Skip)) {
        out.add(i);
      }
    }
    return out;
  }

  /** The same script, with the actions of the steps not in {@code kept} taken out. */
  Script keeping(Set<Integer> kept) {
    List<Step> out = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      Step step = steps.get(i);
      out.add(kept.contains(i) ? step : new Step(new Action.Skip(), step.advance()));
    }
    return new Script(seed, syncerGrace, setup, out);
  }

  /** The first {@code count} steps. */
  Script firstSteps(int count) {
    return new Script(seed, syncerGrace, setup, steps.subList(0, Math.min(count, steps.size())));
  }

  /**
   * The same script with each run of consecutive skipped steps made one wait: their time passes at
   * once, and the checks between them are left out.
   */
  Script compacted() {
    List<Step> out = new ArrayList<>();
    for (Step step : steps) {
      Step last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last != null
          && step.action() instanceof Action.Skip
          && last.action() instanceof Action.Skip) {
        out.set(out.size() - 1, new Step(last.action(), last.advance().plus(step.advance())));
      } else {
        out.add(step);
      }
    }
    return new Script(seed, syncerGrace, setup, out);
  }
}
