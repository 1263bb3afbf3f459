package io.kuik.sim.world.admission;

import java.util.AbstractMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A policy's {@code variables}, as its expressions see them: each one evaluated only when an
 * expression first reads it, then kept for the rest of the request. A variable sees only the
 * variables declared before it, so no cycle can form. A variable whose evaluation fails makes every
 * expression that reads it fail with the same error.
 */
final class LazyVariables {

  /** A variable's name and expression, in declaration order. */
  record Variable(String name, String expression) {}

  private sealed interface Outcome permits Value, Failure {}

  private record Value(Object value) implements Outcome {}

  private record Failure(String message) implements Outcome {}

  /** Evaluates one variable's expression, given the view of the variables before it. */
  @FunctionalInterface
  interface Evaluator {
    Object evaluate(String expression, Map<String, Object> earlierVariables) throws ExpressionError;
  }

  private final List<Variable> variables;
  private final Evaluator evaluator;
  private final Map<String, Outcome> outcomes = new LinkedHashMap<>();

  LazyVariables(List<Variable> variables, Evaluator evaluator) {
    this.variables = List.copyOf(variables);
    this.evaluator = evaluator;
  }

  /** Every variable, as validations and message expressions see them. */
  Map<String, Object> all() {
    return new View(variables.size());
  }

  private Object valueOf(int index) {
    Variable variable = variables.get(index);
    Outcome outcome = outcomes.get(variable.name());
    if (outcome == null) {
      try {
        outcome = new Value(evaluator.evaluate(variable.expression(), new View(index)));
      } catch (ExpressionError e) {
        outcome = new Failure("variable '" + variable.name() + "': " + e.getMessage());
      }
      outcomes.put(variable.name(), outcome);
    }
    if (outcome instanceof Failure failure) {
      // The CEL runtime turns this into an evaluation error of the reading expression.
      throw new IllegalStateException(failure.message());
    }
    return ((Value) outcome).value();
  }

  /** The first {@code limit} variables, read lazily. */
  private final class View extends AbstractMap<String, Object> {
    private final int limit;

    View(int limit) {
      this.limit = limit;
    }

    private int indexOf(Object name) {
      for (int i = 0; i < limit; i++) {
        if (variables.get(i).name().equals(name)) {
          return i;
        }
      }
      return -1;
    }

    @Override
    public boolean containsKey(Object name) {
      return indexOf(name) >= 0;
    }

    @Override
    public Object get(Object name) {
      int index = indexOf(name);
      return index < 0 ? null : valueOf(index);
    }

    @Override
    public Set<Map.Entry<String, Object>> entrySet() {
      // Only reached when an expression uses the map as a whole (size, iteration): evaluate all.
      var all = new LinkedHashMap<String, Object>();
      for (int i = 0; i < limit; i++) {
        all.put(variables.get(i).name(), valueOf(i));
      }
      return all.entrySet();
    }
  }
}
