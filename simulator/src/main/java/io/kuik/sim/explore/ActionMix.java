package io.kuik.sim.explore;

import io.kuik.sim.time.SimRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The explorer's actions as a weighted table, with the weights of one run drawn from its seed, so
 * that every seed explores its own mix and its banner says which (swarm testing): a person's action
 * gets half, once or twice its base weight; a fault the same or zero, so that a quarter of the
 * seeds run without each fault, and some are quiet enough for the checkers' tightest bounds. A step
 * picks one action with a probability proportional to its weight.
 */
final class ActionMix {

  /** People act in every run; a fault may be left out of one. */
  enum Kind {
    ACTION(1, 2, 4),
    FAULT(0, 1, 2, 4);

    /** The weight as a multiple of half the base weight. */
    private final int[] halves;

    Kind(int... halves) {
      this.halves = halves;
    }
  }

  /** One kind of step: its name in the banner, its base weight, and what it does. */
  record Action(String name, Kind kind, int baseWeight, Runnable act) {
    Action {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(act, "act");
      if (baseWeight < 0 || baseWeight % 2 != 0) {
        throw new IllegalArgumentException(
            name + ": the base weight must be even, not " + baseWeight);
      }
    }
  }

  private final List<Action> actions;
  private final int[] weights;
  private final int total;

  private ActionMix(List<Action> actions, int[] weights) {
    this.actions = List.copyOf(actions);
    this.weights = weights.clone();
    int sum = 0;
    for (int w : weights) {
      sum += w;
    }
    this.total = sum;
  }

  /** The table with each weight drawn from {@code random}, in table order. */
  static ActionMix draw(List<Action> table, SimRandom random) {
    int[] weights = new int[table.size()];
    for (int i = 0; i < weights.length; i++) {
      Action action = table.get(i);
      int[] halves = action.kind().halves;
      weights[i] = action.baseWeight() / 2 * halves[random.nextInt(halves.length)];
    }
    return new ActionMix(table, weights);
  }

  /** One action, drawn in proportion to the weights; empty when every weight is zero. */
  Optional<Action> pick(SimRandom random) {
    if (total == 0) {
      return Optional.empty();
    }
    int roll = random.nextInt(total);
    for (int i = 0; i < weights.length; i++) {
      roll -= weights[i];
      if (roll < 0) {
        return Optional.of(actions.get(i));
      }
    }
    throw new IllegalStateException("unreachable: the roll is below the total");
  }

  /** The weight drawn for the named action. */
  int weightOf(String name) {
    for (int i = 0; i < actions.size(); i++) {
      if (actions.get(i).name().equals(name)) {
        return weights[i];
      }
    }
    throw new IllegalArgumentException("no action " + name);
  }

  /** {@code name weight, ...} in table order, for the banner. */
  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < actions.size(); i++) {
      parts.add(actions.get(i).name() + " " + weights[i]);
    }
    return String.join(", ", parts);
  }
}
