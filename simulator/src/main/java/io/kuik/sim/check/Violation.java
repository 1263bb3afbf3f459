package io.kuik.sim.check;

import io.kuik.sim.trace.Target;

/**
 * An invariant that does not hold: its name, a message a person can act on (never a credential),
 * and the trace target of the Secret involved, if one is, e.g. {@code secrets team-a/kuik-...}.
 */
public record Violation(String invariant, String message, Target secretTarget) {

  @Override
  public String toString() {
    return invariant + ": " + message;
  }
}
