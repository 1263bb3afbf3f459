package io.kuik.ports;

import java.time.Instant;

/**
 * The current time, as the core sees it. The production driver reads the system clock; the
 * simulator reads its virtual clock. The core never asks the JVM for the time itself.
 *
 * <p>Contract: never blocks, never fails, and never goes backwards within one process.
 */
@FunctionalInterface
public interface Clock {
  Instant now();
}
