package io.kuik.sim.cli;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The log lines of the production classes a simulated run drives (its syncers and webhook), for the
 * length of one command: left out unless asked for, since the command prints what they did (a plan,
 * a trace) and the faults it injects make them warn by design (an API outage refuses every apply).
 */
final class SimulatedLogs implements AutoCloseable {

  // Kept in a field: java.util.logging holds loggers weakly, and a collected one loses its level.
  private final Logger logs = Logger.getLogger("io.kuik");
  private final Level before;

  private SimulatedLogs(Level level) {
    before = logs.getLevel();
    logs.setLevel(level);
  }

  /** INFO and above when {@code verbose}, else only {@code quiet} and above. */
  static SimulatedLogs at(boolean verbose, Level quiet) {
    return new SimulatedLogs(verbose ? Level.INFO : quiet);
  }

  @Override
  public void close() {
    logs.setLevel(before);
  }
}
