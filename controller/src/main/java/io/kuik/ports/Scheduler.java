package io.kuik.ports;

import java.time.Instant;

/**
 * Asks the driver to wake the core up at a given time. The core keeps its own due times and treats
 * every wake-up as "process what is due now", so a wake-up that comes late, twice, or for a time
 * that no longer matters is harmless: nothing is ever cancelled.
 *
 * <p>Contract: never blocks; the driver calls the core back on the core's own thread, at or after
 * {@code at}.
 */
@FunctionalInterface
public interface Scheduler {
  void wakeAt(Instant at);
}
