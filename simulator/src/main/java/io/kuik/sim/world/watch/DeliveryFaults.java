package io.kuik.sim.world.watch;

import java.time.Duration;

/**
 * What may befall a watch event on its way to a watcher: the seam where a fault module ({@code
 * io.kuik.sim.faults.WatchFaults}) plugs in. {@link #NONE} until one is set: every event is
 * delivered after the delivery delay, in order.
 */
public interface DeliveryFaults {

  DeliveryFaults NONE =
      new DeliveryFaults() {
        @Override
        public boolean drop(WatchInfo watch) {
          return false;
        }

        @Override
        public Duration extraDelay(WatchInfo watch) {
          return Duration.ZERO;
        }

        @Override
        public boolean holdBack(WatchInfo watch) {
          return false;
        }
      };

  /** Whether the next event to this watch is lost. */
  boolean drop(WatchInfo watch);

  /** How much later than the delivery delay the next event to this watch arrives. */
  Duration extraDelay(WatchInfo watch);

  /** Whether the next event to this watch waits for the one after it. */
  boolean holdBack(WatchInfo watch);
}
