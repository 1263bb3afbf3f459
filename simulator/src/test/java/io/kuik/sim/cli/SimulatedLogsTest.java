package io.kuik.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * What {@code simulate} and {@code plan} let the simulated syncers and webhook log: only errors (or
 * nothing, for plan) unless {@code --verbose}, which brings back INFO and above; the level before
 * the command is restored after it.
 */
class SimulatedLogsTest {

  private final Logger kuik = Logger.getLogger("io.kuik");
  private final Logger syncer = Logger.getLogger("io.kuik.syncer.Reconciler");

  @Test
  void withoutVerboseOnlyTheQuietLevelAndAboveWithVerboseInfoAndTheLevelComesBack() {
    Level before = kuik.getLevel();
    try {
      kuik.setLevel(Level.WARNING);
      try (SimulatedLogs logs = SimulatedLogs.at(false, Level.SEVERE)) {
        assertFalse(syncer.isLoggable(Level.WARNING), "a refused apply's warning is left out");
        assertTrue(syncer.isLoggable(Level.SEVERE));
      }
      assertEquals(Level.WARNING, kuik.getLevel(), "restored");
      try (SimulatedLogs logs = SimulatedLogs.at(true, Level.SEVERE)) {
        assertTrue(syncer.isLoggable(Level.INFO), "--verbose brings them back");
        assertFalse(syncer.isLoggable(Level.FINE));
      }
      assertEquals(Level.WARNING, kuik.getLevel());
      try (SimulatedLogs logs = SimulatedLogs.at(false, Level.OFF)) {
        assertFalse(syncer.isLoggable(Level.SEVERE), "plan: nothing at all");
      }
    } finally {
      kuik.setLevel(before);
    }
  }
}
