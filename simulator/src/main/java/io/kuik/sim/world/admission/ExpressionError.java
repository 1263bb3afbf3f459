package io.kuik.sim.world.admission;

/**
 * A CEL expression that could not be compiled or evaluated, or did not yield what it must. The
 * message is the API server's: it names the expression and the error, never a field's value.
 */
final class ExpressionError extends Exception {

  ExpressionError(String message) {
    super(message);
  }
}
