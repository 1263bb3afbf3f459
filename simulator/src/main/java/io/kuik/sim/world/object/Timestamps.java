package io.kuik.sim.world.object;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** metav1.Time: RFC 3339 in UTC with whole seconds, as the API server serializes it. */
public final class Timestamps {

  private Timestamps() {}

  public static String format(Instant instant) {
    return instant.truncatedTo(ChronoUnit.SECONDS).toString();
  }
}
