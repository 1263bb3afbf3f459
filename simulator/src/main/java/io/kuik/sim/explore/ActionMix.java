package io.kuik.sim.explore;

import io.kuik.sim.time.SimRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The explorer's actions as a weighted table ({@link Choice}), with the weights of one run drawn
 * from its seed, so that every seed explores its own mix and its banner says which (swarm testing):
 * a person's action gets half, once or twice its base weight; a fault the same or zero, so that a
 * quarter of the seeds run without each fault, and some are quiet enough for the checkers' tightest
 * bounds. A step picks one action with a probability proportional to its weight.
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

  private final List<Choice> choices;
  private final int[] weights;
  private final int total;

  private ActionMix(List<Choice> choices, int[] weights) {
    this.choices = List.copyOf(choices);
    this.weights = weights.clone();
    int sum = 0;
    for (int w : weights) {
      sum += w;
    }
    this.total = sum;
  }

  /** Every choice, each weight drawn from {@code random}, in table order. */
  static ActionMix draw(SimRandom random) {
    List<Choice> table = List.of(Choice.values());
    int[] weights = new int[table.size()];
    for (int i = 0; i < weights.length; i++) {
      Choice choice = table.get(i);
      int[] halves = choice.kind().halves;
      weights[i] = choice.baseWeight() / 2 * halves[random.nextInt(halves.length)];
    }
    return new ActionMix(table, weights);
  }

  /** One choice, drawn in proportion to the weights; empty when every weight is zero. */
  Optional<Choice> pick(SimRandom random) {
    if (total == 0) {
      return Optional.empty();
    }
    int roll = random.nextInt(total);
    for (int i = 0; i < weights.length; i++) {
      roll -= weights[i];
      if (roll < 0) {
        return Optional.of(choices.get(i));
      }
    }
    throw new IllegalStateException("unreachable: the roll is below the total");
  }

  /** The weight drawn for a choice. */
  int weightOf(Choice choice) {
    return weights[choices.indexOf(choice)];
  }

  /** {@code name weight, ...} in table order, for the banner. */
  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < choices.size(); i++) {
      parts.add(choices.get(i).label() + " " + weights[i]);
    }
    return String.join(", ", parts);
  }
}
